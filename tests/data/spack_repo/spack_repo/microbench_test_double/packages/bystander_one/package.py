# A bystander of the k = 8 planted bisection (tests/data/spack/planted-d):
# a package with no code that a lock diff adds beside the culprit, as an
# upgrade's unrelated packages move beside the one that slows a figure.
# It installs nothing and builds in no time: what it costs a bisection is
# one more unit to halve, not a compile.  For the tests' planted locks only.
from spack_repo.builtin.build_systems.bundle import BundlePackage

from spack.package import *


class BystanderOne(BundlePackage):
    """Planted-bisection stand-in: an unrelated package of a lock diff (tests only)"""

    homepage = "https://example.invalid/microbench-tests"

    version("1.0")
