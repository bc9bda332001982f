"""Real email over SMTP with STARTTLS or implicit TLS (issue 14)."""
