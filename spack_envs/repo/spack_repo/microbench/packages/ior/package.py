# The builtin ior recipe with upstream's later fixes for IOR 4.0.0
# (spack/spack-packages commit 3611e2cc5c, "ior: fixes for IOR 4.0.0").
from spack_repo.builtin.packages.ior.package import Ior as BuiltinIor

from spack.package import *


class Ior(BuiltinIor):
    # IOR 4.0.0's configure.ac calls PKG_CHECK_MODULES
    depends_on("pkgconf", type="build", when="@4.0.0:")

    # glennklockwood's Lustre fix (hpc/ior#353) is part of IOR 4.0.0, where
    # it no longer applies: only up to 3.x.  The builtin declares it for any
    # +lustre; that declaration is dropped below.
    patch(
        "https://github.com/glennklockwood/ior/commit/e49476be64d4100c2da662ea415f327348b3d11d.patch?full_index=1",
        sha256="ee3527023ef70ea9aee2e6208f8be7126d5a48f26c587deed3d6238b4f848a06",
        when="+lustre @:3",
    )


# Spack 1.0 has no directive that drops an inherited one (a subclass runs the
# base's directives first, then its own), so the builtin's `when="+lustre"`
# entry is removed from the class's patch table once the class is built.  A
# KeyError here means the builtin recipe changed: check it again.
del Ior.patches[Spec("+lustre")]
