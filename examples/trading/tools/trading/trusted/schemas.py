"""Row types returned by list_approvals."""

import clauz3


class ApprovalRow(clauz3.Row):
    """One approved (or pending) sale: stock symbol, number of shares, approver, approval flag."""

    stock: str
    shares: int
    approver: str
    approved: bool
