'''An IO500 configuration read as IO500's driver reads it
(microbench/audit/io500.py), on real configurations of the second
corpus's development half (tests/data/audit/corpus2, each with its source
in corpus2.yaml), and on broken copies of them.'''

import pytest

from microbench.audit import io500, kinds

from corpus2 import audited, text


#: O_DIRECT writes, buffered reads (IO500 ISC23's random phases too)
VAST = 'io500-ini-janelia-vast.ini'
#: IO500's own S3 configuration (contrib/s3)
S3 = 'io500-ini-io500-s3.ini'
#: Lustre at a site, every phase, drop-caches FALSE
LUSTRE = 'io500-ini-gatech-lustre.ini'
#: only ior-easy runs (run = FALSE elsewhere), O_DIRECT through api
QUOBYTE = 'io500-ini-quobyte-ior-easy.ini'


def findings(report):
    '''{phase: sorted pitfalls} of a report.'''
    return {inv.where.text.split(']')[0][1:]: sorted(
        f.pitfall for f in inv.findings) for inv in report.invocations}


def test_an_ini_of_io500_is_read_as_io500s():
    assert kinds.kind_of(VAST, text(VAST)) == 'io500'
    report = audited(VAST)
    assert report.error is None and report.kind == 'io500'
    said = findings(report)
    # the writes O_DIRECT (their API): the buffered reads after them find
    # nothing in a page cache (the fifth corpus's reading); the stats a
    # node away only on two nodes or more: depends
    assert said['ior-easy-write'] == [] and said['ior-rnd4k-write'] == []
    assert said['ior-easy-read'] == []
    assert said['mdtest-easy-stat'] == ['S4']
    read = next(inv for inv in report.invocations
                if inv.where.text.startswith('[ior-easy-read]'))
    assert any('ior-easy-write wrote with O_DIRECT' in note
               for note in read.not_judged)
    stat = next(inv for inv in report.invocations
                if inv.where.text.startswith('[mdtest-easy-stat]'))
    assert stat.findings[0].certainty.startswith('depends')
    assert '-t 1m -b 6500m -F -r -R -a POSIX' in read.where.text


def test_an_object_store_has_no_cache_to_answer():
    report = audited(S3)
    assert report.error is None
    assert all(pitfalls == [] for pitfalls in findings(report).values())
    assert any('S3-libs3: not an API of the client' in note
               for inv in report.invocations for note in inv.not_judged)


def test_the_hard_shared_file_may_be_on_lustre():
    said = findings(audited(LUSTRE))
    assert 'S5' in said['ior-hard-write'] and 'S5' in said['ior-hard-read']
    assert 'S5' not in said['ior-easy-write']


def test_dropped_caches_answer_no_read():
    data = text(LUSTRE).replace('drop-caches = FALSE', 'drop-caches = TRUE')
    assert data != text(LUSTRE)
    report = audited(LUSTRE, data)
    assert not any(f.pitfall == 'S4' for f in report.findings)
    assert any(note.startswith('S4: drop-caches = TRUE') for inv in
               report.invocations for note in inv.not_judged)


def test_a_phase_that_does_not_run_is_not_judged():
    said = findings(audited(QUOBYTE))
    assert set(said) == {'ior-easy-write', 'ior-easy-read'}
    assert said['ior-easy-read'] == []


@pytest.mark.parametrize('change, message', [
    (lambda t: t.replace('[ior-easy]', '[ior-turbo]', 1),
     'IO500 knows no section [ior-turbo] (it stops: "unknown section")'),
    (lambda t: t.replace('[ior-easy]', '[ior-easy]\nnot an option', 1),
     "not an option of a section of an IO500 configuration: "
     "'not an option'"),
    (lambda t: 'api = POSIX\n' + t,
     'not an option of a section of an IO500 configuration'),
])
def test_a_broken_configuration_is_refused_in_one_line(change, message):
    report = audited(LUSTRE, change(text(LUSTRE)))
    assert report.invocations == []
    assert message in report.error and '\n' not in report.error


def test_only_an_ini_with_a_section_of_io500_is_io500s():
    assert not io500.is_config('[global]\nrw=write\n')
    assert not io500.is_config('')
    assert io500.is_config('[ior-easy]\n')
