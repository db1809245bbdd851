"""When a Ctrl-C stops a task: a first one during an action waits for the action, at any other moment it
stops at once, a second one always stops at once, and once the summary is being written nothing does."""

from __future__ import annotations

import pytest

from glmagent.stopping import GRACEFUL_STOP, StopControl


def ctrl_c(control: StopControl, *, first: bool = True) -> None:
    control.interrupt(KeyboardInterrupt(), graceful=first)


def test_a_first_ctrl_c_between_actions_stops_at_once() -> None:
    control = StopControl()
    with pytest.raises(KeyboardInterrupt):
        ctrl_c(control)
    assert control.requested is None


def test_a_first_ctrl_c_during_an_action_lets_it_finish_and_says_so() -> None:
    control, told = StopControl(), []
    control.on_request = told.append
    with control.action():
        ctrl_c(control)  # returns: the action goes on
        ran_on = True
    assert ran_on and control.requested == GRACEFUL_STOP
    assert told == ["stopping after the current action"]


def test_a_second_ctrl_c_during_an_action_stops_at_once() -> None:
    control = StopControl()
    with control.action():
        ctrl_c(control)
        with pytest.raises(KeyboardInterrupt):
            ctrl_c(control)


def test_once_an_action_is_over_a_first_ctrl_c_stops_at_once_again() -> None:
    control = StopControl()
    with control.action():
        pass
    with pytest.raises(KeyboardInterrupt):
        ctrl_c(control)


def test_an_action_that_fails_still_ends_the_wait() -> None:
    control = StopControl()
    with pytest.raises(OSError), control.action():
        raise OSError("the command could not start")
    with pytest.raises(KeyboardInterrupt):
        ctrl_c(control)


def test_while_the_summary_is_written_ctrl_c_changes_nothing() -> None:
    control = StopControl()
    control.finishing()
    ctrl_c(control)
    ctrl_c(control, first=False)
    assert control.requested is None


def test_reset_makes_the_control_ready_for_another_task() -> None:
    control = StopControl()
    with control.action():
        ctrl_c(control)
    control.finishing()
    control.reset()
    assert control.requested is None
    with pytest.raises(KeyboardInterrupt):
        ctrl_c(control)
