'''Every file of the sets of real public inputs gathered apart from the
corpora (tests/helpers/probesets.py) has its source, and the audit reads
it, or refuses it, as its SOURCES.tsv row says.'''

import os

import pytest

from probesets import SETS, audited, directory, sources


@pytest.mark.parametrize('probe', SETS)
def test_every_input_has_its_source_and_what_the_audit_does(probe):
    files = set(os.listdir(directory(probe))) - {'SOURCES.tsv'}
    assert files == set(sources(probe))
    assert all(' @ ' in source and said for source, said in
               sources(probe).values())


@pytest.mark.parametrize('probe, name', [
    (probe, name) for probe in SETS for name in sorted(sources(probe))])
def test_each_input_is_read_or_refused_as_its_source_row_says(probe, name):
    report = audited(probe, name)
    if sources(probe)[name][1] == 'read':
        assert report.error is None, report.error
        assert report.invocations
    else:
        assert report.error and not report.invocations
