from .vanilla_vae import *
from .beta_vae import *

vae_models = {"VanillaVAE": VanillaVAE, "BetaVAE": BetaVAE}
