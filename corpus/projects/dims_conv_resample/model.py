import torch.nn as nn

from nn_util import avg_pool_nd, conv_nd


class Downsample(nn.Module):
    def __init__(self, channels, use_conv, dims=2):
        super().__init__()
        if use_conv:
            self.op = conv_nd(dims, channels, channels, 3, stride=2, padding=1)
        else:
            self.op = avg_pool_nd(dims, kernel_size=2, stride=2)

    def forward(self, x):
        return self.op(x)


class Encoder(nn.Module):
    def __init__(self, channels=8, dims=2, conv_resample=True, classes=2):
        super().__init__()
        self.down = Downsample(channels, conv_resample, dims=dims)
        self.head = nn.LazyLinear(classes)

    def forward(self, x):
        return self.head(self.down(x).flatten(1))
