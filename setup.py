"""Build step for the compiled parts: HexAround's move generator, and Hive's (with the Hive
bot's search and evaluation), in C.

Everything else is in pyproject.toml. The extensions are optional: without a C compiler the
install still succeeds and the Python twins do the work (same results, slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "hexaround._movegen",
            sources=["plugins/hexaround/_movegen.c"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        Extension(
            "hive._hivegen",
            sources=["plugins/hive/_hivegen.c"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
    ]
)
