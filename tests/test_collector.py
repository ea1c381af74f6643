"""The garbage-collector tuning of a scan (collector.py) leaves the process as it found it, and
changes no result."""

from __future__ import annotations

import gc

from gpulint.load import collector


def test_paused_restores_the_collector_state() -> None:
    assert gc.isenabled()
    with collector.paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector.paused():
            pass
        assert not gc.isenabled()  # a caller that had it off keeps it off
    finally:
        gc.enable()


def test_objects_are_frozen_only_inside_a_scan_and_handed_back_after() -> None:
    assert gc.get_freeze_count() == 0
    collector.spare_loaded()  # outside a scan: the caller's heap is left alone
    assert gc.get_freeze_count() == 0
    kept = [object() for _ in range(10)]
    with collector.scan_scope():
        with collector.scan_scope():  # nested scans hand back only at the outermost end
            collector.spare_loaded()
            assert gc.get_freeze_count() >= len(kept)
        assert gc.get_freeze_count() >= len(kept)
    assert gc.get_freeze_count() == 0


def test_a_process_that_froze_objects_itself_keeps_them_frozen() -> None:
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        with collector.scan_scope():
            collector.spare_loaded()
        assert gc.get_freeze_count() == before
    finally:
        gc.unfreeze()


def test_a_scan_leaves_nothing_frozen(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from gpulint import pipeline as scan
    from gpulint.ruleset import load_rules

    (tmp_path / "main.tf").write_text('resource "aws_instance" "a" {\n'
                                      '  instance_type = "g5.xlarge"\n}\n')
    result = scan.run([str(tmp_path)], load_rules())
    assert result.resources
    assert gc.get_freeze_count() == 0
