"""The server-rendered pages: views, forms and URLs."""
