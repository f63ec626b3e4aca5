"""A method called on an instance of a project class (`noise.sample(4)`,
`self.stft.mel_spectrogram(x)`) runs where it is called, in that call's order and
context: a draw there before the seeding call is drawn before it."""
from __future__ import annotations

import pytest

from reprolint.api import check_source

SOURCE = '''import torch


class Noise:
    def __init__(self, scale):
        self.scale = scale

    def sample(self, n):
        return torch.randn(n) * self.scale


class Holder:
    def __init__(self):
        self.noise = Noise(0.1)

    def first(self):
        return self.noise.sample(4)


{made}
first = {call}
torch.manual_seed(0)
print(first)
'''


@pytest.mark.parametrize("made, call", [
    ("noise = Noise(0.1)", "noise.sample(4)"),
    ("noise = Noise(0.1).to('cpu')", "noise.sample(4)"),
    ("holder = Holder()", "holder.first()"),
])
def test_a_method_of_an_instance_draws_where_it_is_called(made: str, call: str) -> None:
    found = [d for d in check_source(SOURCE.format(made=made, call=call), "train.py") if d.code == "RPL101"]
    assert [(d.span.start_line, "before `torch.manual_seed` runs" in d.message) for d in found] == [(9, True)]


def test_a_method_no_code_calls_before_the_seed_draws_after_it() -> None:
    # the instance is built first, its method called only after the seed
    source = SOURCE.format(made="noise = Noise(0.1)", call="None").replace("print(first)", "print(noise.sample(4))")
    assert [d for d in check_source(source, "train.py") if d.code == "RPL101"] == []


def test_an_instance_bound_again_to_something_else_is_not_followed() -> None:
    source = SOURCE.format(made="noise = Noise(0.1)\nnoise = make_noise()", call="noise.sample(4)")
    assert [d for d in check_source(source, "train.py") if d.code == "RPL101"] == []
