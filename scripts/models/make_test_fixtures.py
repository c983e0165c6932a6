"""Writes the small model fixtures the Swift tests use beyond the course models.

    /usr/bin/python3 scripts/models/make_test_fixtures.py

Tests/Fixtures/models/warns.pt: a TorchScript module whose forward calls `warnings.warn`
(libtorch's TORCH_WARN) and returns x + 1, for the test that libtorch's warnings stay out of
a notebook unless RuntimeLogs is switched on.
"""
import warnings

import torch


class Warns(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        warnings.warn("benchbook test warning: this model always warns")
        return x + 1


if __name__ == "__main__":
    torch.jit.script(Warns()).save("Tests/Fixtures/models/warns.pt")
    print("wrote Tests/Fixtures/models/warns.pt")
