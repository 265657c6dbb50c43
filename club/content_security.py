"""Where the Content-Security-Policy (settings.CONTENT_SECURITY_POLICY) takes inline styles.

The club's own pages take no inline script nor style. Third-party pages whose templates carry
inline styles keep working by taking those, never inline script: Swagger UI (/api/docs/), DRF's
browsable API and its log-in (/api-auth/login/). They show the schema, or the caller's own
answers, and an inline style cannot run code.
"""

from collections.abc import Mapping
from typing import Any

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from rest_framework import renderers

INLINE_STYLES = {"style-src": [UNSAFE_INLINE]}

inline_styles = csp_update(INLINE_STYLES)


class BrowsableAPIRenderer(renderers.BrowsableAPIRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> Any:
        response = (renderer_context or {}).get("response")
        if response is not None:
            response._csp_update = INLINE_STYLES
        return super().render(data, accepted_media_type, renderer_context)
