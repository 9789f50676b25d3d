"""Build step for the one compiled part: HexAround's move generator in C.

Everything else is in pyproject.toml. The extension is optional: without a C compiler the
install still succeeds and HexAround uses its pure-Python generator (same moves, slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "hexaround._movegen",
            sources=["plugins/hexaround/_movegen.c"],
            optional=True,
            extra_compile_args=["-O2"],
        )
    ]
)
