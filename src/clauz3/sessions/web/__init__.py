"""The web edge: the service app, HTTP routes, the page's WebSocket, request checks, sign-in, and the page itself (static/)."""
