"""A device attached to the machine is not the project: flashing, erasing, fusing, unlocking or running code
on a board or a phone is blocked, while building its image, reading it and listing devices stay allowed.

eFuses and fuse bytes are permanent and a bootloader unlock wipes a phone; a wrong flash can brick a board.
The build tools' flashing targets (`idf.py flash`, `pio run -t upload`, `west flash`) count like the
flashers they call. A command given to `adb shell` is judged as the command it is, as `docker exec`'s is.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    ("posix", "esptool --port /dev/ttyUSB0 write-flash --flash-mode dio 0x0 bootloader.bin"),
    ("posix", "esptool.py --port /dev/ttyUSB0 --baud 460800 write_flash 0 firmware.bin"),
    ("posix", "python -m esptool --chip esp32 -b 460800 write-flash @flash_args"),
    ("posix", "esptool erase-region 0x20000 16k"),
    ("posix", "espefuse --port /dev/ttyUSB0 burn-efuse DIS_USB_JTAG 1"),
    ("posix", "espefuse write-protect-efuse WR_DIS"),
    ("posix", "avrdude -p m128 -c stk500 -U flash:w:diag.hex -U hfuse:w:0x89:m"),
    ("posix", "avrdude -c usbasp -p attiny13 -Uflash:w:main.hex"),
    ("posix", "dfu-util -a 0 -d 2341:0368 -D build/firmware.bin"),
    ("posix", "st-flash --format ihex write firmware.hex"),
    ("posix", "picotool load -x blink.uf2"),
    ("posix", "picotool otp load otp.json"),
    ("posix", "openocd -f interface/stlink.cfg -c 'program build/fw.elf verify reset exit'"),
    ("posix", "nrfjprog --program build/zephyr.hex --chiperase --verify"),
    ("posix", "bossac -e -w --port=ttyACM0 -R firmware.bin"),
    ("posix", "mpremote cp -r lib/ :lib/"),
    ("posix", "fastboot flashing unlock"),
    ("posix", "fastboot flash --slot=all boot boot.img"),
    ("posix", "fastboot -w"),
    ("posix", "adb -d sideload update.zip"),
    ("posix", "adb -s emulator-5554 shell input keyevent 82"),  # a shell on a device chosen by serial
    ("posix", "adb install -r app/build/outputs/apk/debug/app-debug.apk"),
    ("posix", "idf.py -p /dev/ttyUSB0 flash monitor"),
    ("posix", "idf.py efuse-burn --do-not-confirm"),
    ("posix", "pio run -e esp32dev -t upload"),
    ("posix", "platformio run --target=uploadfs"),
    ("posix", "west flash --runner jlink"),
    ("posix", "arduino-cli upload -p /dev/ttyACM0 --fqbn arduino:avr:uno sketch"),
    ("powershell", "esptool --port COM4 write-flash 0x1000 app.bin"),
    ("powershell", "STM32_Programmer_CLI.exe -c port=SWD -w build/fw.hex -v -rst"),
]

ALLOWED = [
    ("posix", "esptool version"),
    ("posix", "esptool image-info build/app.bin"),
    ("posix", "esptool merge-bin -o build/merged.bin 0x0 bootloader.bin 0x10000 app.bin"),
    ("posix", "espefuse summary"),
    ("posix", "avrdude -p m328p -c usbasp -U flash:r:dump.hex:i"),
    ("posix", "dfu-util -l"),
    ("posix", "dfu-util -a 0 -d 0483:df11 -U dump.bin"),
    ("posix", "picotool info build/blink.uf2"),
    ("posix", "picotool uf2 convert -t elf build/blink blink.uf2"),
    ("posix", "mpremote devs"),
    ("posix", "fastboot devices"),
    ("posix", "fastboot getvar all"),
    ("posix", "adb devices -l"),
    ("posix", "adb logcat -d > build/logcat.txt"),
    ("posix", "adb pull /sdcard/Download/report.txt build/"),
    # a command given to `adb shell` is judged as the command it is
    ("posix", "BOOTED=$(adb shell getprop sys.boot_completed 2>/dev/null | tr -d '\\r')"),
    ("posix", "adb -d shell am start -n com.example.app/.MainActivity"),
    ("posix", "adb -e shell logcat -G 16M"),
    ("posix", "idf.py build"),
    ("posix", "idf.py size-components"),
    ("posix", "pio run -e native"),
    ("posix", "pio run --environment $1"),
    ("posix", "pio test -e native"),
    ("posix", "west build -b nrf52840dk_nrf52840 samples/hello_world"),
    ("posix", "arduino-cli compile --fqbn arduino:avr:uno sketch"),
]


def test_changes_to_an_attached_device_are_blocked() -> None:
    every_case(BLOCKED, lambda shell, command: guard_blocks(shell, command, "destructive.attached-device"))


def test_building_reading_and_listing_devices_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)


def test_what_adb_shell_runs_is_checked_like_any_command() -> None:
    guard_blocks("posix", "adb shell rm -rf /sdcard/DCIM", "destructive.recursive-delete")
    guard_blocks("posix", "adb -d shell su -c 'dd if=/dev/block/by-name/boot of=b.img'", "containment")
    guard_blocks("posix", "adb shell", "unverifiable.terminal-program")  # an interactive shell on the phone
