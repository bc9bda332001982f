"""The workspace host: conversations over ACP, the conversation store, recent workspaces.

Protocol shapes stay at the edges: :mod:`.acp_client` speaks ACP to an agent subprocess and
hands the rest of the app small dataclass messages (:mod:`.acp_messages`); :mod:`.store` keeps
conversations in ``conversations.sqlite``; :mod:`.recent` keeps recently opened folders.
"""
