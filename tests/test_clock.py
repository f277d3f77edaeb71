from datetime import datetime, timezone

import pytest

from lab.clock import LAB_EPOCH, Clock, SimulatedClock, WallClock, iso_minute


def test_simulated_clock_moves_only_when_told() -> None:
    clock = SimulatedClock()
    assert clock.now() == 0.0
    clock.sleep(1.5)
    clock.advance(0.25)
    clock.sleep(-3)  # a negative wait waits nothing
    assert clock.now() == pytest.approx(1.75)
    assert clock.datetime() == datetime(2026, 4, 9, 16, 0, 1, 750000, tzinfo=timezone.utc)


def test_simulated_clock_refuses_to_go_back() -> None:
    clock = SimulatedClock()
    clock.set(10)
    with pytest.raises(ValueError, match="cannot go back"):
        clock.set(5)
    with pytest.raises(ValueError, match="cannot go back"):
        clock.advance(-1)


def test_simulated_clock_needs_an_aware_start() -> None:
    with pytest.raises(ValueError, match="aware"):
        SimulatedClock(datetime(2026, 1, 1))


def test_both_clocks_share_one_interface() -> None:
    assert isinstance(SimulatedClock(), Clock)
    assert isinstance(WallClock(), Clock)
    wall = WallClock()
    assert wall.now() >= 0 and wall.datetime().tzinfo is not None


def test_iso_minute_rounds_down_like_notion() -> None:
    assert iso_minute(LAB_EPOCH.replace(minute=20, second=59)) == "2026-04-09T16:20:00.000Z"
