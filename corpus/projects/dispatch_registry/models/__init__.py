from . import convnext  # registers the architectures
