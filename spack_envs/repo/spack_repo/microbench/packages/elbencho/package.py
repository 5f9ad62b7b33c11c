# The builtin elbencho recipe, plus elbencho 3.1-9 (the common pin since
# issue 43), which it does not declare (its newest is 3.0-3).
from spack_repo.builtin.packages.elbencho.package import Elbencho as BuiltinElbencho

from spack.package import *


class Elbencho(BuiltinElbencho):
    # GitHub's archive of the tag v3.1-9 (commit b719ed31..., 2026-06-21),
    # the builtin's url pattern, made again in a clone of
    # github.com/breuner/elbencho with
    #   git archive --format=tar --prefix=elbencho-3.1-9/ v3.1-9 | gzip -cn | sha256sum
    # (the same command gives the builtin's sha256 of 3.0-3 exactly).
    version("3.1-9", sha256="a20f363c68e719a309c7527b57c04e2ce817352b142415ae10676cdfdc799a79")

    # From 3.1 on, elbencho's Makefile has external/prepare-external.sh
    # clone FTXUI (github.com/ArthurSonzogni/ftxui, tag v7.0.0) and build
    # it with cmake, besides cloning Simple-Web-Server
    # (gitlab.com/eidheim/Simple-Web-Server, as every elbencho does): the
    # build runs git and cmake, and needs the network
    depends_on("cmake", type="build", when="@3.1:")
    depends_on("git", type="build", when="@3.1:")
