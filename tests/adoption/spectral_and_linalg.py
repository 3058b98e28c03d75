"""`torch.fft` and `torch.linalg` as public projects call them: torch types neither module, so every call
was `Any` to mypy, and tyr's stubs, which name the functions, must add no error (spectral losses and
audio front ends, FNet and Hyena-style FFT convolutions, whitening, Procrustes, orthogonal init, least
squares, gradient norms).  The last function has plain mypy's own error."""

import numpy as np
import torch
import torch.fft
import torch.nn.functional as F
from torch import nn
from torch.fft import irfft, rfft


def stft_loss(x, y, n_fft=1024):
    X = torch.fft.rfft(x, n=n_fft, dim=-1, norm="ortho")
    Y = rfft(y, n=n_fft, dim=-1, norm="ortho")
    return F.l1_loss(X.abs(), Y.abs()) + (X.real - Y.real).pow(2).mean() + (X.imag - Y.imag).abs().mean()


def spectrum(signal, sample_rate):
    spec = torch.fft.rfft(torch.as_tensor(signal))
    spec = spec.abs().numpy()  # rebound to an array
    return spec, np.fft.rfftfreq(len(signal), 1 / sample_rate), torch.fft.rfftfreq(len(signal), d=1.0 / sample_rate)


def fft_conv(u, k, seqlen):
    fft_size = 2 * seqlen
    k_f = torch.fft.rfft(k, n=fft_size) / fft_size
    u_f = torch.fft.rfft(u.to(dtype=k.dtype), n=fft_size)
    return irfft(u_f * k_f, n=fft_size, norm="forward")[..., :seqlen]


class FourierMixing(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.fft.fft(torch.fft.fft(x, dim=-1), dim=-2).real


def low_pass(images, keep=8):
    f = torch.fft.fftshift(torch.fft.fft2(images), dim=(-2, -1))
    h, w = f.shape[-2:]
    mask = torch.zeros_like(f.real)
    mask[..., h // 2 - keep : h // 2 + keep, w // 2 - keep : w // 2 + keep] = 1
    magnitude = 20 * torch.log(torch.abs(f) + 1e-8)
    return torch.fft.ifft2(torch.fft.ifftshift(f * mask, dim=(-2, -1))).real, magnitude, torch.fft.fftfreq(h)


def known_sizes():
    signal = torch.randn(8, 16)
    X = torch.fft.rfft(signal)
    X[:, 0] = 0
    X = torch.fft.irfft(X, n=16)
    X = X.numpy()
    w, v = torch.linalg.eigh(torch.eye(4))
    w = w.tolist()
    n = torch.linalg.norm(signal, dim=1)
    n = n.numpy()
    return X, w, v, n, torch.fft.fftn(signal, s=(4, 4)), torch.fft.rfft2(signal, norm="backward")


def numpy_spellings(x):
    return torch.fft.fft(x, axis=0), torch.linalg.norm(x, axis=-1, keepdims=True), torch.fft.rfft(x, n=np.int64(8))


def normalize(v, eps=1e-8):
    return v / torch.linalg.norm(v, ord=2, dim=-1, keepdim=True).clamp_min(eps)


def whiten(x):
    cov = x.T @ x / (x.shape[0] - 1)
    eigenvalues, eigenvectors = torch.linalg.eigh(cov)
    w = eigenvectors @ torch.diag(1.0 / torch.sqrt(eigenvalues + 1e-5)) @ eigenvectors.T
    return x @ w, torch.linalg.eigh(cov).eigenvalues.max().item(), torch.linalg.eigvalsh(cov)


def procrustes(a, b):
    u, s, vh = torch.linalg.svd(a.T @ b)
    r = u @ vh
    if torch.linalg.det(r) < 0:
        u[:, -1] *= -1
        r = u @ vh
    return r, s.sum().item(), torch.linalg.svd(a, full_matrices=False).S


def orthogonal_(weight: torch.Tensor) -> torch.Tensor:
    q, r = torch.linalg.qr(torch.randn(weight.shape[0], weight.shape[1]))
    q *= torch.sign(torch.diagonal(r))
    with torch.no_grad():
        weight.copy_(q)
    return weight


def least_squares(a, b, reg: float = 1e-3):
    n = a.shape[-1]
    gram = a.mT @ a + reg * torch.eye(n)
    x = torch.linalg.solve(gram, a.mT @ b)
    sign, logabsdet = torch.linalg.slogdet(gram)
    solution = torch.linalg.lstsq(a, b).solution
    return x, logabsdet, torch.linalg.inv(gram), torch.linalg.pinv(a, rcond=1e-6), torch.linalg.cholesky(gram), solution


def gradient_norm(model: nn.Module) -> float:
    norms = [torch.linalg.vector_norm(p.grad.detach(), 2) for p in model.parameters() if p.grad is not None]
    total = torch.linalg.vector_norm(torch.stack(norms), 2.0)
    return total.item()


def spectral_norm(w, x):
    return (
        torch.linalg.svdvals(w)[0],
        torch.linalg.matrix_norm(w, ord=2),
        torch.linalg.norm(w, float("inf")),
        torch.linalg.norm(w, np.inf),
        torch.linalg.matrix_rank(w),
        torch.linalg.cond(w),
        torch.linalg.cross(x, x),
        torch.linalg.matmul(w, w),
        torch.linalg.vecdot(x, x),
    )


def factorize(x):
    try:
        return torch.linalg.cholesky(x)
    except torch.linalg.LinAlgError:
        return torch.linalg.eigh(x)[1]


def plain_mypy_error(x: torch.Tensor) -> int:
    return x.size()  # plain mypy's error: a Size is no int


def arguments_torch_takes(v: torch.Tensor, maybe: torch.Tensor | None, width: int | None) -> object:
    """NumPy's names for the input, an optional tensor, an int that may be None: plain mypy saw
    `torch.linalg` and `torch.fft` as `Any` and checked none of it."""
    return torch.linalg.vector_norm(x=v), torch.linalg.norm(maybe), torch.fft.rfft(v, n=width)
