"""A recursive generic alias, as matplotlib's `HashableList` is: read from the cache by a module checked again."""

from typing import TypeVar, Union

T = TypeVar("T")

Nested = list[Union[T, "Nested[T]"]]


def flatten(items: list[Nested[T]]) -> list[T]:
    return []
