from nets.backbone import Backbone
from nets.sampler import NoiseDecoder
