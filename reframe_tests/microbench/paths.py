'''Where the suite's files are: one home for every path of the checkout.

The library lives in ``reframe_tests/microbench`` of a checkout (``pip
install -e .``), so every path is relative to the checkout's root.  Nothing
here imports ReFrame: the configuration, the verdicts and the tests read it.
'''

import glob
import os

#: The library (this package)
LIBRARY = os.path.dirname(os.path.abspath(__file__))
#: The check files (``reframe -c``): the library's parent
CHECKS = os.path.dirname(LIBRARY)
#: The checkout
ROOT = os.path.dirname(CHECKS)

#: The committed reference files, one per tool
REFERENCES = os.path.join(CHECKS, 'references')
#: The acknowledgements of the verdicts' changes, one file per system
ACKS = os.path.join(REFERENCES, 'acks')
#: The check file of ``microbench audit --measure`` (not a pitfall: it
#: measures the forms of an audit finding, :mod:`.audit.formsfile`)
AUDIT_CHECKS = os.path.join(CHECKS, 'audit_checks', 'audit_forms.py')
#: The suite's modes (``--mode quick``)
MODES = os.path.join(CHECKS, 'modes.yaml')
#: The shell skeleton of every rounds job
SKELETON = os.path.join(LIBRARY, 'suite', 'rounds.sh')
#: The residency witness of one node, beside it in every stage directory
RESIDENCY = os.path.join(LIBRARY, 'suite', 'residency.sh')
#: The machine's settings on one node, beside it in every stage directory
SETTINGS = os.path.join(LIBRARY, 'suite', 'settings.sh')
#: What one rank of an MPI run says of itself (its number and node),
#: beside the skeleton in every stage directory
RANK = os.path.join(LIBRARY, 'suite', 'rank.sh')
#: One node's part of a run of the link search (microbench links)
LINKRUN = os.path.join(LIBRARY, 'suite', 'linkrun.sh')
#: The scratch disk's counts around every sample, sourced by the skeleton
COUNTS = os.path.join(LIBRARY, 'suite', 'counts.sh')
#: The lock and the progress lines of every rounds job, which the skeleton
#: sources from beside it
PROGRESS = os.path.join(LIBRARY, 'suite', 'progress.sh')
#: ReFrame's configuration: config.py and one file per system
SYSTEMS = os.path.join(ROOT, 'systems')
CONFIG = os.path.join(SYSTEMS, 'config.py')
#: The locked Spack environments
SPACK_ENVS = os.path.join(ROOT, 'spack_envs')
#: Perflogs and the results storage of runs from the checkout
PERFLOGS = os.path.join(ROOT, 'perflogs')
RESULTS_DB = os.path.join(PERFLOGS, 'results.db')
#: The Python closure, exact and hashed
REQUIREMENTS = os.path.join(ROOT, 'requirements.txt')


def perflog_files(directory):
    '''Every perflog under ``directory`` (ReFrame writes one per check and
    partition, ``<system>/<partition>/<check>.log``), in order.'''
    return sorted(glob.glob(os.path.join(directory, '**', '*.log'),
                            recursive=True))
