'''S1's page cache witness and its fourth answer: fincore's share of what
a short sample wrote (microbench.tools.fio.cache) on real outputs of
fio_cache_flags (fio 3.40, 16 writers, 1 s, ext4), fio's RWF_DONTCACHE
run, and fincore on known inputs: a file written through the page cache
and one written around it.'''

import os
import shutil
import subprocess

import pytest

from microbench.suite.output import OutputError
from microbench.tools import fio
from microbench.tools.fio import cache
from microbench.units import MIB

from fixtures import fio_options, text
from page_cache import write_direct

#: variant -> the page cache's share of what its witness wrote
SHARES = {'buffered': 1.0, 'direct': 0.0, 'dontcache': 0.0242}


@pytest.mark.parametrize('variant', SHARES)
def test_the_page_cache_after_each_variant(variant):
    found = cache.parse_fincore(text(f'fincore/{variant}.txt'))
    name = f'fio/suite-witness-{variant}.json'
    run = fio.parse(text(name), 'write', fio_options(name))
    assert (found.files, found.size) == (16, 16 * 256 * MIB)
    written = min(run.io_bytes['write'], found.size)
    assert found.resident / written == pytest.approx(SHARES[variant],
                                                     abs=1e-4)


def test_dontcache_is_fio_340s_uncached_through_pvsync2():
    name = 'fio/suite-dontcache.json'
    run = fio.parse(text(name), 'write', fio_options(name))
    assert run.version == 'fio-3.40'
    assert fio_options(name)['uncached'] == '1'
    assert fio_options(name)['ioengine'] == 'pvsync2'
    assert run.mib_s('write') == pytest.approx(2090.2, abs=0.1)


def test_a_fincore_output_that_does_not_add_up_is_rejected():
    found = text('fincore/buffered.txt')
    rows = found.splitlines(keepends=True)
    with pytest.raises(OutputError, match='16 files counted, 15 listed'):
        cache.parse_fincore(''.join(rows[1:]))

    with pytest.raises(OutputError, match='not the last'):
        cache.parse_fincore(''.join([*rows[:-1], rows[-1], rows[0]]))

    # resident bytes that are not the pages it says
    resident, pages, rest = rows[0].split(' ', 2)
    with pytest.raises(OutputError, match='not whole pages'):
        cache.parse_fincore(''.join([f'{resident} 0 {rest}', *rows[1:]]))

    with pytest.raises(OutputError, match='twice'):
        cache.parse_fincore(''.join([rows[0], *rows[:-1],
                                     'files 17\n']))


def _fincore(directory):
    done = subprocess.run(['bash', '-c', cache.fincore_command(directory)],
                          capture_output=True, text=True, check=True)
    return cache.parse_fincore(done.stdout)


needs_fincore = pytest.mark.skipif(shutil.which('fincore') is None,
                                   reason='fincore is missing (util-linux)')


@needs_fincore
def test_a_file_written_through_the_page_cache_is_resident(tmp_path):
    with open(tmp_path / 'cached', 'wb') as fp:
        fp.write(os.urandom(8 * MIB))

    found = _fincore(str(tmp_path))
    assert (found.files, found.size) == (1, 8 * MIB)
    assert found.resident == 8 * MIB


@needs_fincore
def test_a_file_written_around_the_page_cache_is_not(tmp_path):
    write_direct(tmp_path / 'direct')

    found = _fincore(str(tmp_path))
    assert (found.files, found.size, found.resident) == (1, 8 * MIB, 0)
