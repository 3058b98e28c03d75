from recursive_alias.nested import Nested, flatten


def layout(grid: Nested[str]) -> None:
    flatten([grid])
