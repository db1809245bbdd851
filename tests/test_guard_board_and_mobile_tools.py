"""Board flashers, mobile SDK managers and serial monitors the policy did not know.

- Flashing or installing onto an attached device under other tools' words: cargo's embedded subcommands
  (`cargo flash`, `cargo embed`, `cargo espflash`), `espflash`, `teensy-loader-cli`, `annepro2-tools`,
  `qmk flash`, `tockloader install`, `dfu-programmer … flash`, `particle flash`, `esphome run`, MicroPython's
  `pyboard.py`, Gradle's device tasks (`installDebug`, `uninstallAll`), `flutter install`, and the build
  systems' `flash` targets (`make flash`, `ninja flash`, `cmake --build build --target flash`). Reading a
  board's files (`ampy ls`, `mpremote fs ls`) and reading an image stay allowed.
- Downloads under the mobile and embedded SDK managers' words: `flutter packages get` (the old spelling of
  `flutter pub get`), `flutter precache`, `flutter channel beta`, `flutter pub outdated`; fvm runs the
  `flutter` or `dart` it wraps and installs SDKs (`fvm install`, `fvm use`); `melos bootstrap`;
  `arduino-cli core install`; `espup install`; `pio pkg install`; `idf.py add-dependency`; `xcodebuild
  -allowProvisioningUpdates`.
- The build tools' serial monitors never return (`idf.py monitor`, `pio device monitor`, `tio`), as
  `picocom` does not.
- The legacy `android` tool's AVDs replaced or deleted, its SDK updated; `xcrun simctl runtime match set`
  picks the simulator runtime for every project.
- Gradle's `--dry-run` (`-m`) runs no task: `./gradlew publish --dry-run` publishes nothing.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

DEVICE = "destructive.attached-device"
INSTALL = "network.package-install"
TERMINAL = "unverifiable.terminal-program"
MACHINE = "destructive.machine-state"

BLOCKED = [
    # A. flashing or installing onto an attached device
    ("posix", "cargo flash --chip $(CHIP) --release", DEVICE),
    ("posix", "cargo flash --chip nRF52840_xxAA --release", DEVICE),
    ("posix", "cargo embed --release", DEVICE),
    ("posix", "cargo espflash --release --monitor --example=blinky /dev/ttyUSB0", DEVICE),
    ("posix", "cargo espflash flash --monitor", DEVICE),
    ("posix", "cargo espflash erase-flash", DEVICE),
    ("posix", "espflash flash --monitor target/xtensa-esp32-none-elf/release/app", DEVICE),
    ("posix", "espflash write-bin 0x0 fw.bin", DEVICE),
    ("posix", "espflash erase-flash", DEVICE),
    ("posix", "espflash reset", DEVICE),
    ("posix", "teensy-loader-cli -mmcu=atmega32u4 -w ergodox_ez_tom.hex", DEVICE),
    ("posix", "annepro2-tools --boot -t led shine.bin", DEVICE),
    ("posix", "qmk flash", DEVICE),
    ("posix", "qmk flash -kb novelkeys/nk87 -km mine", DEVICE),
    ("posix", "tockloader install blink.tab", DEVICE),
    ("posix", "tockloader uninstall blink", DEVICE),
    ("posix", "tockloader flash --address 0x40000 kernel.bin", DEVICE),
    ("posix", "tockloader erase-apps", DEVICE),
    ("posix", "dfu-programmer atmega32u4 flash main.hex", DEVICE),
    ("posix", "dfu-programmer atmega32u4 erase --force", DEVICE),
    ("posix", "particle flash mydevice firmware.bin", DEVICE),
    ("posix", "particle update", DEVICE),
    ("posix", "esphome run living_room.yaml", DEVICE),
    ("posix", "esphome upload living_room.yaml --device /dev/ttyUSB0", DEVICE),
    ("posix", "python pyboard.py --device /dev/ttyACM0 main.py", DEVICE),
    ("posix", "pyboard.py -d /dev/ttyACM0 -f cp main.py :", DEVICE),
    ("powershell", "pipenv run python build\\pyboard.py --device COM4 -f cp main.py :", DEVICE),
    (
        "powershell",
        'pipenv run python build\\pyboard.py --device COM4 -c "import machine; machine.reset()"',
        DEVICE,
    ),
    ("powershell", "call gradlew installDebug", DEVICE),
    ("powershell", "call gradlew uninstallRelease", DEVICE),
    ("posix", "./gradlew installDebug", DEVICE),
    ("posix", "./gradlew :app:installRelease", DEVICE),
    ("posix", "./gradlew installDebugAndroidTest", DEVICE),
    ("posix", "./gradlew uninstallAll", DEVICE),
    ("posix", "flutter install", DEVICE),
    ("posix", "flutter install -d emulator-5554", DEVICE),
    ("posix", "make flash", DEVICE),
    ("posix", "make -C firmware flash", DEVICE),
    ("posix", "make flash-bootloader", DEVICE),
    ("posix", "gmake flash_app", DEVICE),
    ("posix", "ninja flash", DEVICE),
    ("posix", "ninja -C build flash", DEVICE),
    ("posix", "cmake --build build --target flash", DEVICE),
    ("posix", "cmake --build build -t flash", DEVICE),
    # B. downloads
    ("posix", "flutter packages get", INSTALL),
    ("posix", "flutter packages upgrade", INSTALL),
    ("posix", "flutter packages pub get", INSTALL),
    ("posix", "flutter precache", INSTALL),
    ("posix", "flutter precache --ios", INSTALL),
    ("posix", "flutter channel beta", INSTALL),
    ("posix", "flutter pub outdated", INSTALL),
    ("posix", "dart pub outdated", INSTALL),
    ("posix", "fvm flutter pub get", INSTALL),
    ("posix", "fvm flutter precache", INSTALL),
    ("posix", "fvm dart pub get", INSTALL),
    ("posix", "fvm exec flutter pub get", INSTALL),
    ("posix", 'echo "y" | fvm install', INSTALL),
    ("posix", "fvm install 3.10.0", INSTALL),
    ("posix", "fvm use 3.10.0", INSTALL),
    ("posix", "fvm global stable", INSTALL),
    ("posix", "fvm remove 3.10.0", INSTALL),
    ("posix", "fvm releases", INSTALL),
    ("posix", "flutter pub global run melos bootstrap", INSTALL),
    ("posix", "melos bootstrap", INSTALL),
    ("posix", "melos bs", INSTALL),
    ("posix", "arduino-cli core install arduino:avr", INSTALL),
    ("posix", "arduino-cli core update-index", INSTALL),
    ("posix", "arduino-cli lib install ArduinoJson", INSTALL),
    ("posix", "arduino-cli update", INSTALL),
    ("posix", "espup install", INSTALL),
    ("posix", "espup update", INSTALL),
    ("posix", "pio pkg install", INSTALL),
    ("posix", "platformio pkg install -l bblanchon/ArduinoJson", INSTALL),
    ("posix", "pio pkg update", INSTALL),
    ("posix", "pio platform install espressif32", INSTALL),
    ("posix", "pio lib install ArduinoJson", INSTALL),
    ("posix", "idf.py add-dependency espressif/led_strip", INSTALL),
    ("posix", "idf.py update-dependencies", INSTALL),
    (
        "posix",
        "xcodebuild -exportArchive -archivePath build/App.xcarchive -exportPath out "
        "-exportOptionsPlist ExportOptions.plist -allowProvisioningUpdates",
        INSTALL,
    ),
    ("posix", "android update sdk --no-ui --filter platform-tools", INSTALL),
    # C. serial monitors
    ("posix", "idf.py monitor", TERMINAL),
    ("posix", "idf.py -p /dev/ttyUSB0 monitor", TERMINAL),
    ("posix", "python -m esp_idf_monitor -p /dev/ttyACM0 idf_as_lib.elf", TERMINAL),
    ("posix", "pio device monitor", TERMINAL),
    ("posix", "pio device monitor -b 115200", TERMINAL),
    ("posix", "pio run -t monitor", TERMINAL),
    ("posix", "pio run --target monitor", TERMINAL),
    ("posix", "arduino-cli monitor -p /dev/ttyACM0", TERMINAL),
    ("posix", "espflash monitor", TERMINAL),
    ("posix", "cargo espflash monitor", TERMINAL),
    ("posix", "west espressif monitor", TERMINAL),
    ("posix", "tio /dev/ttyUSB0", TERMINAL),
    ("posix", "esphome logs living_room.yaml", TERMINAL),
    ("posix", "particle serial monitor", TERMINAL),
    ("posix", "tockloader listen", TERMINAL),
    # D. machine-wide emulators and simulators
    ("posix", "echo no | android create avd --force -n test -t android-19 --abi armeabi-v7a", MACHINE),
    ("posix", "android delete avd -n test", MACHINE),
    ("posix", "xcrun simctl runtime match set iphoneos17.0 21A342", MACHINE),
    # E. publishing still blocks without a dry run
    ("posix", "./gradlew publish", "network"),
    ("posix", "./gradlew clean publish --warn --stacktrace", "network"),
]

ALLOWED = [
    # A. building, reading images and boards, listing devices
    ("posix", "cargo build --release"),
    ("posix", "cargo espflash save-image --chip esp32 app.bin"),
    ("posix", "cargo espflash board-info"),
    ("posix", "espflash save-image --chip esp32c3 target/app app.bin"),
    ("posix", "espflash board-info"),
    ("posix", "espflash completions bash"),
    ("posix", "espflash --version"),
    ("posix", "espflash --help"),
    ("posix", "teensy-loader-cli --list-mcus"),
    ("posix", "qmk compile -kb novelkeys/nk87 -km mine"),
    ("posix", "qmk doctor"),
    ("posix", "tockloader list"),
    ("posix", "tockloader info"),
    ("posix", "dfu-programmer --version"),
    ("posix", "particle compile photon ."),
    ("posix", "particle list"),
    ("posix", "esphome compile living_room.yaml"),
    ("posix", "esphome config living_room.yaml"),
    ("posix", "./gradlew assembleDebug"),
    ("posix", "./gradlew installDist"),
    ("posix", "./gradlew test"),
    ("powershell", "call gradlew assembleRelease"),
    ("posix", "flutter build apk"),
    ("posix", "flutter devices"),
    ("posix", "make"),
    ("posix", "make all"),
    ("posix", "make test"),
    ("posix", "ninja"),
    ("posix", "ninja -C build"),
    ("posix", "cmake --build build"),
    ("posix", "cmake --build build --target all"),
    ("posix", "ampy --port /dev/ttyUSB0 ls"),
    ("powershell", "ampy --port COM10 ls"),
    ("posix", "ampy --port /dev/ttyUSB0 get boot.py"),
    ("posix", "mpremote fs ls"),
    ("posix", "mpremote ls"),
    ("posix", "mpremote fs cat boot.py"),
    ("posix", "mpremote connect /dev/ttyUSB0 fs ls"),
    # B. building and reading what is there
    ("posix", "flutter pub run build_runner build --delete-conflicting-outputs"),
    ("posix", "flutter channel"),
    ("posix", "flutter doctor"),
    ("posix", "flutter analyze"),
    ("posix", "fvm list"),
    ("posix", "fvm doctor"),
    ("posix", "fvm --version"),
    ("posix", "fvm flutter build apk"),
    ("posix", "fvm flutter test"),
    ("posix", "fvm dart format ."),
    ("posix", "melos run test"),
    ("posix", "melos clean"),
    ("posix", "melos list"),
    ("posix", "arduino-cli compile --fqbn arduino:avr:uno ."),
    ("posix", "arduino-cli core list"),
    ("posix", "arduino-cli lib list"),
    ("posix", "arduino-cli board list"),
    ("posix", "espup --version"),
    ("posix", "pio pkg list"),
    ("posix", "pio run -e default"),
    ("posix", "pio test -e native"),
    ("posix", "idf.py build"),
    ("posix", "idf.py menuconfig --help"),
    ("posix", "xcodebuild -exportArchive -archivePath build/App.xcarchive -exportPath out"),
    ("posix", "xcodebuild -scheme App -sdk iphonesimulator build"),
    # C. monitors' neighbours that return
    ("posix", "pio device list"),
    ("posix", "pio run -t clean"),
    ("posix", "arduino-cli board listall"),
    ("posix", "tio --list"),
    ("posix", "tio --version"),
    ("posix", "west build -b nrf52dk_nrf52832"),
    # D. listing emulators and simulators
    ("posix", "android list avd"),
    ("posix", "android list targets"),
    ("posix", "xcrun simctl runtime match list"),
    ("posix", "xcrun simctl list runtimes"),
    # E. Gradle's dry run
    ("posix", "./gradlew clean publish --warn --stacktrace --dry-run"),
    ("posix", "./gradlew publish -m"),
    ("posix", "gradle publishToMavenLocal --dry-run"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_flashes_downloads_monitors_and_emulators_block(shell: str, command: str, expected: str) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_builds_reads_and_dry_runs_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
