"""The agent side: the ACP client and its typed messages, the agent supervisor and process groups, the providers."""
