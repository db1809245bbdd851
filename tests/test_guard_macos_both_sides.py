"""macOS lines from both sides: what an intruder reads of a Mac, beside what a release script does with the
project's own build.

What starts on its own is discovery wherever it is read: launchd's agents and daemons (their folders listed,
a job's plist read), the login window's hooks (also asked of `defaults` by domain), emond's rules and the
Wi-Fi networks the machine knows (a write there stays a write outside the project); a project's own
packaging tree holding a `Library/LaunchDaemons` folder is not meant. The user's contacts, calendars, notes
and usage record are read like their mail and messages, and the folder of local user records listed is the
account list. `launchctl dumpstate` and `procinfo` print the services' and a process's environment as
`launchctl print` does. fastlane's plugins are gems installed from the network; its lanes stay the
project's own.

A quoted title with blanks handed to a program (`hdiutil create -volname "MySQL Log Viewer"`, `pkgbuild
--component "dist/Python Launcher.app"`) names an application or a volume, not a command line: a runner's
name written in lower case, with an option or a separator, stays a command line.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

DISCOVERY = "env.machine-discovery"
INSTALL = "network.package-install"

AUTOSTART_READ = [
    ("posix", "ls ~/Library/LaunchAgents"),
    ("posix", "ls -la /Library/LaunchDaemons"),
    ("posix", "find /Library/LaunchAgents ~/Library/LaunchAgents -name '*.plist'"),
    ("posix", "plutil -p /Library/LaunchDaemons/com.vendor.updater.plist"),
    ("posix", "cat ~/Library/LaunchAgents/com.google.keystone.agent.plist"),
    ("posix", "ls /System/Library/LaunchDaemons | wc -l"),
    ("posix", "ls /Library/StartupItems"),
    ("posix", "defaults read com.apple.loginwindow"),
    ("posix", "defaults read /Library/Preferences/com.apple.loginwindow LoginHook"),
    ("posix", "cat /Library/Preferences/com.apple.loginwindow.plist"),
    ("posix", "plutil -p ~/Library/Preferences/com.apple.loginwindow.plist"),
    ("posix", "ls /etc/emond.d/rules"),
    ("posix", "defaults read /Library/Preferences/SystemConfiguration/com.apple.airport.preferences"),
    ("posix", "plutil -p /Library/Preferences/com.apple.wifi.known-networks.plist"),
]

AUTOSTART_READ_TWINS = [
    ("posix", "plutil -lint pkgroot/Library/LaunchDaemons/com.example.helper.plist"),
    ("posix", "ls pkgroot/Library/LaunchAgents"),
    ("posix", "pkgbuild --root pkgroot --identifier com.example.helper --version 1.0 build/helper.pkg"),
    ("posix", "defaults read com.apple.dock autohide"),
    ("posix", 'defaults read "$PWD/build/Release/App.app/Contents/Info" CFBundleShortVersionString'),
    ("posix", "plutil -p build/Release/App.app/Contents/Info.plist"),
]

PERSONAL_STORES = [
    ("posix", "sqlite3 ~/Library/Application\\ Support/AddressBook/AddressBook-v22.abcddb .dump"),
    ("posix", "ls ~/Library/Application\\ Support/AddressBook/Sources"),
    ("posix", "cp ~/Library/Calendars/Calendar.sqlitedb /tmp/c.db"),
    ("posix", "sqlite3 ~/Library/Group\\ Containers/group.com.apple.notes/NoteStore.sqlite .tables"),
    ("posix", "sqlite3 ~/Library/Application\\ Support/Knowledge/knowledgeC.db 'select * from ZOBJECT'"),
    ("posix", "ls /var/db/dslocal/nodes/Default/users/"),
]

PERSONAL_STORES_TWINS = [
    ("posix", "sqlite3 build/app.db .tables"),
    ("posix", "ls ~/Library/Application\\ Support/MyApp"),
    ("posix", "cp Tests/Fixtures/Calendar.ics build/"),
    ("posix", "ls ~/Library/Developer/Xcode/DerivedData"),
]

LAUNCHD_STATE = [
    ("posix", "launchctl dumpstate"),
    ("posix", "launchctl dumpstate | grep -A5 com.apple"),
    ("posix", "sudo launchctl procinfo 123"),
]

LAUNCHD_STATE_TWINS = [
    ("posix", "launchctl limit"),
    ("posix", "launchctl version"),
]

FASTLANE_PLUGINS = [
    ("posix", "bundle exec fastlane install_plugins"),
    ("posix", "fastlane update_plugins"),
    ("posix", "fastlane add_plugin firebase_app_distribution"),
    ("posix", "fastlane update_fastlane"),
]

FASTLANE_LANES = [
    ("posix", "bundle exec fastlane test"),
    ("posix", "fastlane ios tests"),
    ("posix", "fastlane run clear_derived_data"),
]

TITLES = [
    ("posix", 'hdiutil create -volname "MySQL Log Viewer" -srcfolder dist/ -ov -format UDZO Viewer.dmg'),
    ("posix", 'pkgbuild --component "dist/MySQL Log Viewer.app" --install-location /Applications v.pkg'),
    ("posix", 'hdiutil create -volname "Python Tools 3.12" -srcfolder build/dmg -ov build/tools.dmg'),
    ("posix", 'create-dmg --volname "Node Inspector" build/Inspector.dmg build/app'),
    ("posix", 'appdmg --title "Ruby Console" spec.json build/console.dmg'),
]

COMMAND_LINES_IN_WORDS = [
    ("posix", 'create-dmg --volname "mysql Log Viewer" build/x.dmg build/app'),
    ("posix", 'appdmg --title "mysql -u root" spec.json build/x.dmg'),
    ("posix", 'appdmg --title "Tools; bash" spec.json build/x.dmg'),
    ("posix", 'appdmg --title "MYSQL LOG" spec.json build/x.dmg'),
]


def test_what_starts_on_its_own_read_on_macos_is_discovery() -> None:
    every_case(AUTOSTART_READ, lambda shell, command: guard_blocks(shell, command, DISCOVERY))


def test_a_projects_packaging_tree_and_its_build_settings_stay_allowed() -> None:
    every_case(AUTOSTART_READ_TWINS, guard_allows)


def test_the_users_contacts_calendars_notes_and_accounts_are_not_read() -> None:
    every_case(PERSONAL_STORES, lambda shell, command: guard_blocks(shell, command, "env"))


def test_the_projects_own_data_and_the_apps_support_folder_stay_allowed() -> None:
    every_case(PERSONAL_STORES_TWINS, guard_allows)


def test_launchds_state_dump_prints_the_environment() -> None:
    every_case(LAUNCHD_STATE, lambda shell, command: guard_blocks(shell, command, "env"))


def test_launchds_limits_and_version_stay_allowed() -> None:
    every_case(LAUNCHD_STATE_TWINS, guard_allows)


def test_fastlane_plugins_are_installed_from_the_network() -> None:
    every_case(FASTLANE_PLUGINS, lambda shell, command: guard_blocks(shell, command, INSTALL))


def test_fastlane_lanes_stay_allowed() -> None:
    every_case(FASTLANE_LANES, guard_allows)


def test_a_title_with_blanks_names_an_application_not_a_command_line() -> None:
    every_case(TITLES, guard_allows)


def test_a_runner_in_lower_case_or_with_options_is_still_a_command_line() -> None:
    every_case(COMMAND_LINES_IN_WORDS, guard_blocks_any)


def guard_blocks_any(shell: str, command: str) -> None:
    guard_blocks(shell, command, "unverifiable")
