"""The workspace host, in rooms (docs/architecture.md, "The rooms of sessions/").

``terminal/`` the terminal frontends · ``web/`` the service, routes, the page's WebSocket and the page
(``web/static/``) · ``conversation/`` the host and its live conversation · ``store/`` the SQLite stores
· ``agent/`` the ACP edge (updates become :mod:`.agent.acp_messages`' typed messages there), the agent
supervisor and the providers · ``launch/`` the ``clauz3 ui`` launcher and its configuration. A room
imports only the rooms after it in that list (the ``sessions-rooms`` import contract).
"""
