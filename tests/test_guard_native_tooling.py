"""Systems and embedded tooling: what reaches another process, a port or a board is blocked, while building,
testing, profiling and debugging the project's own program stay allowed.

- A profiler sampling a running process or the whole machine (`perf record -p PID`, `perf record -a`, `perf
  top`) reads every program's stacks and arguments, as `strace -p` does; only perf's own options count, not
  those of the program it starts (`perf stat make -C build`).
- Debug servers (`gdbserver :1234`, `st-util`, `JLinkGDBServer`) listen on a port.
- Serial and USB bootloader clients (`stm32loader.py -w`, `stcgal`), `arduino-cli compile --upload` and the
  makefiles' `upload` targets flash a board.
- Programs from the embedded tool managers' own folders (`~/.platformio/penv/bin/pio`) are installed tools.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    # profilers attached to a process, a CPU, a user or the whole machine
    ("posix", "perf record -F 99 -a -g -- sleep 60", "env.credential-dump"),
    ("posix", "perf record -ag -- sleep 10", "env.credential-dump"),
    ("posix", "perf record --call-graph dwarf -p 4242 -- sleep 30", "env.credential-dump"),
    ("posix", "perf record -p $(pgrep -n java) -g", "env.credential-dump"),
    ("posix", "perf stat --pid=1337 -e cycles", "env.credential-dump"),
    ("posix", "perf stat -a -e instructions -- sleep 2", "env.credential-dump"),
    ("posix", "perf stat -C 0-3 ./build/bench", "env.credential-dump"),
    ("posix", "perf trace -p 812 -e openat", "env.credential-dump"),
    ("posix", "perf sched record -a -- sleep 1", "env.credential-dump"),
    ("posix", "perf top -g", "env.credential-dump"),
    ("posix", "perf top", "env.credential-dump"),
    # debug servers
    ("posix", "gdbserver :2345 ./build/unit_tests", "network.local-server"),
    ("posix", "gdbserver --attach localhost:2345 4321", "network.local-server"),
    ("posix", "lldb-server gdbserver *:1234 -- ./build/app", "network.local-server"),
    ("posix", "st-util -p 4500", "network.local-server"),
    ("posix", "JLinkGDBServer -device STM32F407VG -if SWD -speed 4000", "network.local-server"),
    ("powershell", "JLinkGDBServerCL.exe -device nRF52840_xxAA -if SWD -port 2331", "network.local-server"),
    # flashing a board
    ("posix", "stm32loader.py -p /dev/ttyUSB0 -e -w -v fw.bin", "destructive.attached-device"),
    ("posix", "python3 tools/stm32loader.py -p /dev/ttyACM0 -w build/app.bin", "destructive.attached-device"),
    ("posix", "stcgal -P stc8 -p /dev/ttyUSB0 build/main.ihx", "destructive.attached-device"),
    ("posix", "wchisp flash build/firmware.bin", "destructive.attached-device"),
    ("posix", "micronucleus --run build/main.hex", "destructive.attached-device"),
    ("posix", "iceprog build/top.bin", "destructive.attached-device"),
    (
        "posix",
        "arduino-cli compile -b arduino:avr:nano --upload -p /dev/ttyUSB0 x",
        "destructive.attached-device",
    ),
    (
        "posix",
        "arduino-cli compile -u -p /dev/ttyACM0 -b arduino:samd:mkr1000 .",
        "destructive.attached-device",
    ),
    (
        "posix",
        "arduino-cli compile -vu -p COM3 -b esp32:esp32:esp32 .",
        "destructive.attached-device",
    ),
    ("posix", "make upload", "destructive.attached-device"),
    ("posix", "make -C firmware upload PORT=/dev/ttyACM0", "destructive.attached-device"),
    ("posix", "make fuses", "destructive.attached-device"),
    ("posix", "ninja -C build upload_app", "destructive.attached-device"),
    ("posix", "~/.platformio/penv/bin/pio run -e uno -t upload", "destructive.attached-device"),
    ("powershell", "stm32loader -p COM5 -e -w build\\app.bin", "destructive.attached-device"),
    # a tool manager's folder spares only its programs, not any script next to them
    ("posix", "~/.platformio/run.sh", "unverifiable.outside-program"),
    ("posix", "~/.espressif/x", "unverifiable.outside-program"),
]

ALLOWED = [
    # profiling what the line starts, whatever that program's own options are
    ("posix", "perf record -F 99 -g -o build/perf.data ./build/bench"),
    ("posix", "perf record --call-graph dwarf -- ./build/app --threads 4 -p 8080"),
    ("posix", "perf stat make -C build -j8"),
    ("posix", "perf stat -r 5 -e cycles,instructions -- cargo test -p core"),
    ("posix", "perf stat -e task-clock ./build/bench -a"),
    ("posix", "perf trace -s ./build/app"),
    ("posix", "perf sched record ./build/app -a"),
    ("posix", "perf report -i perf.data --stdio"),
    ("posix", "perf annotate -i build/perf.data"),
    ("posix", "perf top --help"),
    # debugging without a server
    ("posix", "gdb -batch -ex run -ex bt --args ./build/unit_tests"),
    ("posix", "lldb --batch -o run -k bt -- ./build/app"),
    ("posix", "gdbserver --version"),
    ("posix", "st-util --version"),
    ("posix", "lldb-server version"),
    # building for a board, not flashing it
    ("posix", "stm32loader --help"),
    ("posix", "arduino-cli compile -b arduino:avr:nano --output-dir build blink"),
    ("posix", "arduino-cli compile -v --fqbn arduino:avr:uno ."),
    ("posix", "make all"),
    ("posix", "make -C firmware hex"),
    ("posix", "ninja -C build app"),
    ("posix", "make uploads-index"),
    # the embedded tool managers' programs, run by their path
    ("posix", "~/.platformio/penv/bin/pio test -e native -v"),
    ("posix", "$HOME/.platformio/penv/bin/platformio run -e esp32dev"),
    ("posix", "~/.platformio/packages/toolchain-atmelavr/bin/avr-size build/firmware.elf"),
    (
        "posix",
        "~/.espressif/tools/xtensa-esp-elf/esp-13.2.0/bin/xtensa-esp32-elf-gcc --version",
    ),
    ("posix", "~/.arduino15/packages/arduino/tools/avr-gcc/7.3.0/bin/avr-objdump -d build/sketch.elf"),
]


def test_what_reaches_another_process_a_port_or_a_board_is_blocked() -> None:
    every_case(BLOCKED, guard_blocks)


def test_building_profiling_and_debugging_the_project_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)
