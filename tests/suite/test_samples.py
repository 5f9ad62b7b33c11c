'''One path from a sample's files to its figures
(microbench.suite.samples), and the one list of record fields
(microbench.fields).'''

import shutil

import pytest

from microbench import fields
from microbench.tools import fio, ior
from microbench.suite import samples
from microbench.suite.recorded import Recorded

from fixtures import path, text

FIO = 'fio/logwrite-libaio-qd16-direct-sync-1g-fallocate_default.json'


def keep(tmp_path, name, data, variant='direct', number=1):
    '''Keep ``data`` (bytes) as a sample's file ``name``, as a rounds job
    does.'''
    (tmp_path / samples.kept_name(name, variant, number)).write_bytes(data)


def test_kept_names():
    assert samples.kept_name('fio.json', 'direct', 2) == 'fio-direct-2.json'
    assert samples.kept_name('stderr.txt', 'easy.none', 1) == \
        'stderr-easy.none-1.txt'


def test_every_sample_is_read(tmp_path):
    for number in (1, 2):
        keep(tmp_path, 'fio.json', text(FIO).encode(), number=number)
        keep(tmp_path, 'stderr.txt', b'', number=number)

    runs = samples.read_runs(tmp_path, 'direct', 2, fio.read_sample)
    assert [r.figures for r in runs] == [fio.parse(text(FIO)).figures] * 2


def test_a_missing_file_names_the_sample_and_the_file(tmp_path):
    keep(tmp_path, 'fio.json', text(FIO).encode())
    keep(tmp_path, 'stderr.txt', b'')
    with pytest.raises(samples.SampleError) as err:
        samples.read_runs(tmp_path, 'direct', 2, fio.read_sample)

    assert err.value.number == 2
    assert err.value.file == str(tmp_path / 'fio-direct-2.json')
    assert 'no such file: the tool did not write it' in str(err.value)


def test_bytes_that_are_not_utf8_are_rejected(tmp_path):
    data = text(FIO).encode()
    # Cut inside the multi-byte character, and a stray byte
    keep(tmp_path, 'fio.json', data.replace(b'"jobs"', b'"jo\xc3'))
    keep(tmp_path, 'stderr.txt', b'')
    with pytest.raises(samples.SampleError, match=r'byte \d+ is not UTF-8'):
        samples.read_runs(tmp_path, 'direct', 1, fio.read_sample)


def test_an_error_line_behind_a_rank_label_is_found(tmp_path):
    shutil.copy(path('ior/easy-stonewalled.summary.json'),
                tmp_path / 'ior-easy.none-1.json')
    error = text('ior/error-block-not-multiple.txt').splitlines()[0]
    keep(tmp_path, 'ior.out', f'0: {error}\n'.encode(), 'easy.none')
    keep(tmp_path, 'stderr.txt', b'', 'easy.none')
    with pytest.raises(samples.SampleError,
                       match='IOR printed an error: ERROR: block size must'):
        samples.read_runs(tmp_path, 'easy.none', 1, ior.read_sample)


def test_the_sanity_message_names_everything():
    err = samples.SampleError('the output is empty', 3, '/stage/fio-a-3.json')
    assert samples.failure(err, 'fio_cache_flags %mode=a', 'a', 'fio',
                           'fio --name=x') == (
        'fio_cache_flags %mode=a: sample 3 of a: fio output '
        '/stage/fio-a-3.json: the output is empty; command: fio --name=x')


def test_the_record_fields_are_one_list():
    assert list(Recorded.var_space) == list(fields.FIELDS)
    # The perflog's columns, as they were before the fields became one list:
    # a facility's perflogs keep their header across the change
    assert fields.perflog_columns() == [
        'check_job_completion_time', 'check_name', 'check_variant',
        'check_system', 'check_partition', 'check_environ',
        'check_perf_var', 'check_perf_value', 'check_perf_unit',
        'check_perf_ref', 'check_perf_lower_thres', 'check_perf_upper_thres',
        'check_perf_result', 'check_measures', 'check_samples',
        'check_sample_values', 'check_tool', 'check_tool_version',
        'check_node', 'check_scratch', 'check_scratch_fstype',
        'check_scratch_mount_options', 'check_command_line',
        'check_witness', 'check_note', 'check_spack_env', 'check_spack_spec',
        # Added with the Darshan witnesses, at the end
        'check_darshan_witness', 'check_darshan_logs',
        # Added with the Slurm test cluster, at the end
        'check_job_id',
        # Added with the verdicts, at the end
        'check_kernel', 'check_figure_samples',
        # Added with the bundles, at the end
        'check_suite_commit',
        # Added with the component limits, at the end
        'check_limit_name', 'check_limit_value', 'check_share_of_limit',
        # Added with the residency witness, at the end
        'check_resident_share',
        # Added with the cold-start witness, at the end
        'check_warmup_rounds', 'check_cold_start',
        # Added with the data-to-memory ratios, at the end
        'check_data_to_memory',
        # Added with the gap's spread rule, at the end
        'check_too_spread',
        # Added with the A/B experiments, at the end
        'check_stack',
        # Added with the diagnosis: where the program was, which lock
        'check_tool_path', 'check_spack_lock', 'check_machine_settings',
        'check_counted',
        # Added with the multi-node runs read per node, at the end
        'check_node_figures',
    ]
    assert fields.SHARED == ('samples', 'tool', 'tool_version', 'node',
                             'scratch', 'scratch_fstype',
                             'scratch_mount_options', 'spack_env',
                             'spack_spec', 'job_id', 'kernel',
                             'warmup_rounds', 'tool_path', 'spack_lock',
                             'machine_settings')
