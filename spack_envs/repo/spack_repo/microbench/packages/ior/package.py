# The builtin ior recipe with upstream's later fixes for IOR 4.0.0
# (spack/spack-packages commit 3611e2cc5c, "ior: fixes for IOR 4.0.0"), and
# IOR's GPU buffers, which the builtin recipe cannot build: +cuda.
from spack_repo.builtin.build_systems.cuda import CudaPackage
from spack_repo.builtin.packages.ior.package import Ior as BuiltinIor

from spack.package import *


class Ior(BuiltinIor, CudaPackage):
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

    # +cuda (CudaPackage: the variants cuda and cuda_arch, depends_on cuda):
    # IOR 4.0.0's -O allocateBufferOnGPU=1 (managed memory, cudaMallocManaged)
    # and, with GPUDirect Storage (cuFile, cufile.h and libcufile of the CUDA
    # toolkit), =2 (device memory, cudaMalloc) with --gpuDirect.  Its
    # configure.ac first appeared in 4.0.0.
    conflicts("+cuda", when="@:3", msg="IOR's GPU buffers are IOR 4's")
    conflicts("cuda_arch=none", when="+cuda",
              msg="utilities-gpu.cu is compiled for one cuda_arch")

    @when("+cuda")
    def configure_args(self):
        # configure.ac of IOR 4.0.0: --with-cuda=<prefix> adds
        # -I<prefix>/include and -L<prefix>/lib64, defines HAVE_CUDA once
        # cuda_runtime.h is found and links cudart.  --with-gpuDirect builds
        # utilities-gpu.cu (with $(NVCC) $(CFLAGS)) and links cufile only
        # when it is `yes` (AM_CONDITIONAL HAVE_GPU_DIRECT): cufile.h is
        # then found through the CUDA prefix above.  NVCC carries the arch.
        cuda = self.spec["cuda"].prefix
        arch = self.spec.variants["cuda_arch"].value
        nvcc = " ".join([cuda.bin.nvcc, *self.cuda_flags(arch)])
        return super().configure_args() + [
            f"--with-cuda={cuda}",
            "--with-gpuDirect=yes",
            f"--with-nvcc={nvcc}",
        ]


# Spack 1.0 has no directive that drops an inherited one (a subclass runs the
# base's directives first, then its own), so the builtin's `when="+lustre"`
# entry is removed from the class's patch table once the class is built.  A
# KeyError here means the builtin recipe changed: check it again.
del Ior.patches[Spec("+lustre")]
