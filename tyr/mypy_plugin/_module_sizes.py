"""The sizes a torch module's attributes hold: `fc.in_features` of a `Linear[In, Out]` is `Dim[In]`.

torch types them `int`; tyr's module types carry the same sizes as type arguments
(`Linear[784, 256]`), so a read gives the size itself (`Literal[784]`, `Dim[In]`), as
`x.size(1)` does, and code that builds tensors from them (`torch.zeros(r,
base.in_features)` in LoRA, a classifier head from `backbone.fc.in_features`) keeps
their shapes.  A size the module's type does not know is torch's `int`.
"""

from __future__ import annotations

from mypy.maptype import map_instance_to_supertype
from mypy.plugin import AttributeContext
from mypy.types import Instance, Type, get_proper_type

from tyr.mypy_plugin._types import Lookup, Scope

_NN = "torch.nn.modules."

SIZE_ATTRIBUTES: dict[str, str] = {
    **{f"{_NN}linear.Linear.{a}": v for a, v in (("in_features", "_In"), ("out_features", "_Out"))},
    **{
        f"{_NN}linear.Bilinear.{a}": v
        for a, v in (("in1_features", "_In"), ("in2_features", "_In2"), ("out_features", "_Out"))
    },
    **{f"{_NN}conv._ConvNd.{a}": v for a, v in (("in_channels", "_In"), ("out_channels", "_Out"), ("groups", "_Groups"))},
    **{f"{_NN}sparse.Embedding.{a}": v for a, v in (("num_embeddings", "_Num"), ("embedding_dim", "_Dim"))},
    f"{_NN}batchnorm._NormBase.num_features": "_Features",
    **{f"{_NN}normalization.GroupNorm.{a}": v for a, v in (("num_groups", "_Groups"), ("num_channels", "_Channels"))},
    **{
        f"{_NN}activation.MultiheadAttention.{a}": v
        for a, v in (("embed_dim", "_Embed"), ("num_heads", "_Heads"), ("kdim", "_KDim"), ("vdim", "_VDim"))
    },
    f"{_NN}channelshuffle.ChannelShuffle.groups": "_Groups",
    f"{_NN}pixelshuffle.PixelShuffle.upscale_factor": "_Factor",
    f"{_NN}pixelshuffle.PixelUnshuffle.downscale_factor": "_Factor",
}
"""`Class.attribute` of a torch module: the type variable of the class that is the attribute's size."""


def size_attribute_hook(ctx: AttributeContext, fullname: str, lookup: Lookup) -> Type:
    """`fc.in_features`: the size the module's type argument holds, where it is known."""
    module = get_proper_type(ctx.type)
    if ctx.is_lvalue or not isinstance(module, Instance):
        return ctx.default_attr_type
    owner_name, _, attribute = fullname.rpartition(".")
    owner = next((base for base in module.type.mro if base.fullname == owner_name), None)
    if owner is None:
        return ctx.default_attr_type
    names = [v.name for v in owner.defn.type_vars]
    variable = SIZE_ATTRIBUTES[fullname]
    args = map_instance_to_supertype(module, owner).args
    if variable not in names or len(args) != len(names):
        return ctx.default_attr_type
    scope = Scope(lookup)
    size = scope.size_of(args[names.index(variable)])
    return scope.dim_value_type(size) if size is not None else ctx.default_attr_type
