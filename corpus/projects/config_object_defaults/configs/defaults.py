"""yacs defaults of the project, detectron-style: the training script reads them as its
options. The seed defaults to -1 ("do not seed") and cuDNN autotuning to on."""
from yacs.config import CfgNode as CN

_C = CN()
_C.SEED = -1
_C.CUDNN_BENCHMARK = True
_C.MODEL = CN()
_C.MODEL.CHANNELS = 16
_C.SOLVER = CN()
_C.SOLVER.BASE_LR = 0.1
_C.SOLVER.DETERMINISTIC = False


def get_cfg_defaults():
    return _C.clone()
