"""Cross-origin reads of the public API (django-cors-headers; docs/embeds.md, "Reading the API from
another site"). settings.CORS_URLS_REGEX names the public read-only endpoints; this middleware adds that
only reads get CORS headers: a request in any other method gets none, so a page on another site can
never read the answer to a write, whatever the endpoint. A preflight asking for a write is answered
with the read methods only (CORS_ALLOW_METHODS), so the browser never sends the write; a "simple"
write that needs no preflight reaches the site without cookies the browser may send across sites, or
with them and without the CSRF token, and is refused either way."""
from corsheaders.middleware import CorsMiddleware

READ_METHODS = ("GET", "HEAD", "OPTIONS")


class PublicReadCorsMiddleware(CorsMiddleware):
    def is_enabled(self, request):
        return request.method in READ_METHODS and super().is_enabled(request)
