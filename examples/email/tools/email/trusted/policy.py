"""Coverage policy: a program that sends email should say who may receive it, and that no one gets two."""

from clauz3.policy import domain_policy

POLICY = domain_policy(when_used="send_email", recommended=["only", "unique_recipients"])
