#! /bin/bash
# SPDX-License-Identifier: GPL-2.0

#
# perf/001 Test
#
# Buffered random write performance test.
#
. ./common/preamble
_begin_fstest auto

fio_config=$tmp.fio
fio_results=$tmp.json

# Import common functions.
. ./common/filter
. ./common/perf

_require_scratch
_require_block_device $SCRATCH_DEV
_require_fio_results

_size=$((16 * $LOAD_FACTOR))
cat >$fio_config <<EOF
[t1]
directory=${SCRATCH_MNT}
allrandrepeat=1
readwrite=randwrite
size=${_size}G
ioengine=psync
end_fsync=1
fallocate=none
EOF

_require_fio $fio_config

_fio_results_init

# We are going to write at least 16gib, make sure our scratch fs is large enough
# to fit and not deal with any enospc overhead.
_size=$(($_size * 4 * 1024 * 1024))
_scratch_mkfs >> $seqres.full 2>&1
_scratch_mount
_require_fs_space $SCRATCH_MNT $_size

cat $fio_config >> $seqres.full
$FIO_PROG --output-format=json --output=$fio_results $fio_config

_scratch_unmount
cat $fio_results >> $seqres.full
_fio_results_compare $seq $fio_results
echo "Silence is golden"
status=0; exit
