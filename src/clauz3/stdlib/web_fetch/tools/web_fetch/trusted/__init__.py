"""HTTP(S) GET and POST with checked URLs and addresses (05 WEB-1, WEB-2)."""
