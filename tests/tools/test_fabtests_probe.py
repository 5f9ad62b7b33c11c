'''The probe of a fabtests completion method (yield): a client against a
port no server listens on opens its completion queue first, and says so
where the provider refuses the method.  Held to real outputs of fabtests
1.17's fi_msg_pingpong over Debian's libfabric 1.17, tcp provider.'''

import subprocess

import pytest

from microbench.tools.fabtests import checks

from fixtures import path


@pytest.mark.parametrize('method, accepted', [('yield', False),
                                               ('fd', True)])
def test_the_probe_tells_a_refused_method(method, accepted):
    # What the client printed: FI_WAIT_YIELD refused by fi_cq_open(); fd
    # accepted, then the connection refused (no server)
    saved = path(f'fabtests/probe-{method}-tcp-P1.client.out')
    probe = checks.cq_accepted(f"grep -v '^# ' {saved}")
    done = subprocess.run(['bash', '-c', probe])
    assert (done.returncode == 0) == accepted
