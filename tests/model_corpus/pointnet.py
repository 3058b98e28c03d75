"""PointNet (T-Net input/feature transforms, shared MLPs as Conv1d on (B, C, N), max over points,
classification and segmentation heads) and a simple GNN message-passing layer over an edge_index
(2, E) with gather, index_add_/scatter_add_ aggregation and bincount degree normalization.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
N = TypeVar("N")  # points / nodes
K = TypeVar("K")  # T-Net size
C = TypeVar("C")
E = TypeVar("E")  # edges
D = TypeVar("D")
F_ = TypeVar("F_")
M = TypeVar("M")


@checked
class TNet(nn.Module, Generic[K]):
    """Predicts a (B, k, k) transform from a (B, k, N) point set."""

    def __init__(self, k: Dim[K]) -> None:
        super().__init__()
        self.k = k
        self.conv1 = nn.Conv1d(k, 64, 1)
        self.conv2 = nn.Conv1d(64, 128, 1)
        self.conv3 = nn.Conv1d(128, 1024, 1)
        self.fc1 = nn.Linear(1024, 512)
        self.fc2 = nn.Linear(512, 256)
        self.fc3 = nn.Linear(256, k * k)
        self.bn1 = nn.BatchNorm1d(64)
        self.bn2 = nn.BatchNorm1d(128)
        self.bn3 = nn.BatchNorm1d(1024)
        self.bn4 = nn.BatchNorm1d(512)
        self.bn5 = nn.BatchNorm1d(256)

    def forward(self, x: Tensor[B, K, N]) -> Tensor[B, K, K]:
        batchsize = x.size()[0]
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        x = F.relu(self.bn3(self.conv3(x)))
        x = torch.max(x, 2, keepdim=True)[0]
        x = x.view(-1, 1024)
        x = F.relu(self.bn4(self.fc1(x)))
        x = F.relu(self.bn5(self.fc2(x)))
        x = self.fc3(x)
        iden = torch.eye(self.k, dtype=x.dtype, device=x.device).flatten().repeat(batchsize, 1)
        x = x + iden
        x = x.view(-1, self.k, self.k)
        return x


@checked
class PointNetEncoder(nn.Module):
    def __init__(self, global_feat: bool = True, feature_transform: bool = True, channel: int = 3) -> None:
        super().__init__()
        self.stn = TNet(3)
        self.conv1 = nn.Conv1d(channel, 64, 1)
        self.conv2 = nn.Conv1d(64, 128, 1)
        self.conv3 = nn.Conv1d(128, 1024, 1)
        self.bn1 = nn.BatchNorm1d(64)
        self.bn2 = nn.BatchNorm1d(128)
        self.bn3 = nn.BatchNorm1d(1024)
        self.global_feat = global_feat
        self.feature_transform = feature_transform
        self.fstn = TNet(64)

    def forward(self, x: Tensor[B, 3, N]) -> tuple[Tensor[B, 1024], Tensor[B, 3, 3], Tensor[B, 64, 64]]:
        trans = self.stn(x)
        x = x.transpose(2, 1)
        x = torch.bmm(x, trans)
        x = x.transpose(2, 1)
        x = F.relu(self.bn1(self.conv1(x)))
        trans_feat = self.fstn(x)
        x = x.transpose(2, 1)
        x = torch.bmm(x, trans_feat)
        x = x.transpose(2, 1)
        x = F.relu(self.bn2(self.conv2(x)))
        x = self.bn3(self.conv3(x))
        x = torch.max(x, 2, keepdim=True)[0]
        x = x.view(-1, 1024)
        return x, trans, trans_feat

    def point_features(self, x: Tensor[B, 3, N]) -> Tensor[B, 1088, N]:
        """Segmentation features: the global feature repeated per point, concatenated with the local ones."""
        n_pts = x.size()[2]
        trans = self.stn(x)
        x = torch.bmm(x.transpose(2, 1), trans).transpose(2, 1)
        x = F.relu(self.bn1(self.conv1(x)))
        trans_feat = self.fstn(x)
        x = torch.bmm(x.transpose(2, 1), trans_feat).transpose(2, 1)
        pointfeat = x
        x = F.relu(self.bn2(self.conv2(x)))
        x = self.bn3(self.conv3(x))
        x, _idx = torch.max(x, 2, keepdim=True)
        x = x.view(-1, 1024, 1).repeat(1, 1, n_pts)
        out = torch.cat([x, pointfeat], 1)
        return out


def feature_transform_regularizer(trans: Tensor[B, K, K]) -> Tensor[()]:
    d = trans.size()[1]
    eye = torch.eye(d, device=trans.device)[None, :, :]
    diff = torch.bmm(trans, trans.transpose(2, 1)) - eye
    loss = torch.mean(torch.norm(diff, dim=(1, 2)))
    return loss


@checked
class PointNetCls(nn.Module, Generic[M]):
    def __init__(self, k: Dim[M]) -> None:
        super().__init__()
        self.feat = PointNetEncoder(global_feat=True, feature_transform=True)
        self.fc1 = nn.Linear(1024, 512)
        self.fc2 = nn.Linear(512, 256)
        self.fc3 = nn.Linear(256, k)
        self.dropout = nn.Dropout(p=0.4)
        self.bn1 = nn.BatchNorm1d(512)
        self.bn2 = nn.BatchNorm1d(256)

    def forward(self, x: Tensor[B, 3, N]) -> tuple[Tensor[B, M], Tensor[B, 64, 64]]:
        x, _trans, trans_feat = self.feat(x)
        x = F.relu(self.bn1(self.fc1(x)))
        x = F.relu(self.bn2(self.dropout(self.fc2(x))))
        x = self.fc3(x)
        return F.log_softmax(x, dim=1), trans_feat


@checked
class PointNetSeg(nn.Module, Generic[M]):
    def __init__(self, num_class: Dim[M]) -> None:
        super().__init__()
        self.k = num_class
        self.feat = PointNetEncoder(global_feat=False)
        self.conv1 = nn.Conv1d(1088, 512, 1)
        self.conv2 = nn.Conv1d(512, 256, 1)
        self.conv3 = nn.Conv1d(256, 128, 1)
        self.conv4 = nn.Conv1d(128, num_class, 1)
        self.bn1 = nn.BatchNorm1d(512)
        self.bn2 = nn.BatchNorm1d(256)
        self.bn3 = nn.BatchNorm1d(128)

    def forward(self, x: Tensor[B, 3, N]) -> Tensor[B, N, M]:
        batchsize = x.size()[0]
        n_pts = x.size()[2]
        x = self.feat.point_features(x)
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        x = F.relu(self.bn3(self.conv3(x)))
        x = self.conv4(x)
        x = x.transpose(2, 1).contiguous()
        x = F.log_softmax(x.view(-1, self.k), dim=-1)
        x = x.view(batchsize, n_pts, self.k)
        return x


# ---------------- GNN message passing ----------------

@checked
def degree(index: Tensor[E], num_nodes: Dim[N]) -> Tensor[N]:
    deg = torch.bincount(index, minlength=num_nodes)
    return deg[:num_nodes].float()


@checked
class MessagePassing(nn.Module, Generic[D, F_]):
    """h_i' = W_self h_i + sum_{j -> i} W_msg h_j / deg(i)"""

    def __init__(self, in_dim: Dim[D], out_dim: Dim[F_]) -> None:
        super().__init__()
        self.lin_msg = nn.Linear(in_dim, out_dim)
        self.lin_self = nn.Linear(in_dim, out_dim)

    def forward(self, x: Tensor[N, D], edge_index: Tensor[2, E]) -> Tensor[N, F_]:
        src, dst = edge_index[0], edge_index[1]
        x_j = x[src]
        msg = self.lin_msg(x_j)
        num_nodes = x.size(0)
        agg = torch.zeros(num_nodes, msg.size(1), dtype=msg.dtype).index_add(0, dst, msg)
        deg = torch.bincount(dst, minlength=num_nodes).clamp(min=1).to(msg.dtype)
        agg = agg / deg.unsqueeze(-1)
        return self.lin_self(x) + agg


@checked
class ScatterConv(nn.Module, Generic[D, F_]):
    """GCN-style layer with symmetric normalization and scatter_add_ aggregation."""

    def __init__(self, in_dim: Dim[D], out_dim: Dim[F_]) -> None:
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_dim))

    def forward(self, x: Tensor[N, D], edge_index: Tensor[2, E]) -> Tensor[N, F_]:
        n = x.shape[0]
        loops = torch.arange(n, device=x.device)
        edge_index = torch.cat([edge_index, torch.stack([loops, loops])], dim=1)
        row, col = edge_index
        h = self.lin(x)
        deg = degree(col, n)
        deg_inv_sqrt = deg.pow(-0.5)
        deg_inv_sqrt[deg_inv_sqrt == float("inf")] = 0
        norm = deg_inv_sqrt[row] * deg_inv_sqrt[col]
        msg = norm.view(-1, 1) * h.index_select(0, row)
        out = torch.zeros_like(h)
        out.scatter_add_(0, col.unsqueeze(-1).expand_as(msg), msg)
        assert torch.allclose(out, h.new_zeros(h.shape).index_add_(0, col, msg))
        return out + self.bias


@checked
class GNN(nn.Module, Generic[D, C]):
    def __init__(self, in_dim: Dim[D], hidden: int, num_classes: Dim[C]) -> None:
        super().__init__()
        self.conv1 = MessagePassing(in_dim, hidden)
        self.conv2 = ScatterConv(hidden, hidden)
        self.head = nn.Linear(hidden, num_classes)

    def forward(self, x: Tensor[N, D], edge_index: Tensor[2, E], batch: Tensor[N], num_graphs: int) -> Tensor[Any, C]:
        h = F.relu(self.conv1(x, edge_index))
        h = F.relu(self.conv2(h, edge_index))
        # global mean pool per graph
        pooled = torch.zeros(num_graphs, h.size(1)).index_add_(0, batch, h)
        counts = torch.bincount(batch, minlength=num_graphs).clamp(min=1).unsqueeze(1)
        pooled = pooled / counts
        return self.head(pooled)


@checked
class TinyGNN(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.mp = MessagePassing(16, 32)
        self.sc = ScatterConv(32, 8)

    def forward(self, x: Tensor[N, 16], edge_index: Tensor[2, E]) -> Tensor[N, 8]:
        h = F.relu(self.mp(x, edge_index))
        h = self.sc(h, edge_index)
        return h


def demo() -> None:
    torch.manual_seed(0)
    pts = torch.randn(4, 3, 50)
    cls = PointNetCls(5)
    logp, tf = cls(pts)
    assert logp.shape == (4, 5) and tf.shape == (4, 64, 64)
    loss = F.nll_loss(logp, torch.tensor([0, 1, 2, 3])) + 0.001 * feature_transform_regularizer(tf)
    loss.backward()
    seg = PointNetSeg(6)
    out = seg(pts)
    print("seg", out.shape)
    assert out.shape == (4, 50, 6)

    n, e = 10, 30
    x = torch.randn(n, 16)
    edge_index = torch.randint(0, n, (2, e))
    gnn = GNN(16, 32, 3)
    batch = torch.tensor([0] * 5 + [1] * 5)
    print("gnn", gnn(x, edge_index, batch, 2).shape)
    tiny = TinyGNN()
    print("tiny", tiny(x, edge_index).shape)
    print("deg", degree(edge_index[1], n).shape)


if __name__ == "__main__":
    demo()
