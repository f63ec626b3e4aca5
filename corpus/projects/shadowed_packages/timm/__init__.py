"""This project's own package happens to be called like the timm library."""
