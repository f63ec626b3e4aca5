from .augment import AugmentOp, OPS, \
    policy_transform, SCHEDULES
