from .dla_simple import *
from .vgg import *
