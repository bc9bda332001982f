"""HTTP effects. They are simulations: no request leaves the machine."""

import clauz3
from clauz3.paths import url_has_no_parent_segments


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda url: len(url) > 0, message="url must not be empty")
@clauz3.requires(lambda url: url_has_no_parent_segments(url), message="url path must not contain \".\" or \"..\" segments")
@clauz3.protected(url="url")
@clauz3.reads_data("the web page {url}")
def http_get(url: str) -> str:
    """Fetch url and return the response body (simulated: always empty)."""
    return ""


@clauz3.trusted
@clauz3.mock
@clauz3.requires(lambda url, body: len(url) > 0, message="url must not be empty")
@clauz3.requires(lambda url, body: url_has_no_parent_segments(url), message="url path must not contain \".\" or \"..\" segments")
@clauz3.protected(url="url", body="text")
def http_post(url: str, body: str) -> None:
    """Post body to url (simulated: nothing is sent)."""
    return None
