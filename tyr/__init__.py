"""tyr: shape-typed deep learning for PyTorch."""
