"""AgentDojo workspace suite as a clauz3 library: effects call AgentDojo's own tools."""
