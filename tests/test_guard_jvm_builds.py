"""JVM builds (Maven, Gradle, sbt, Coursier, the JDK's tools, Android's `adb`) as CI files and scripts
write them.

Building, testing, reading the dependency graph the build resolves anyway and editing the project's own POM
stay allowed; asking the repositories for newer releases, fetching a build tool or a JVM and sending a
release somewhere are blocked. Names shared by two tools are told apart by the words only one of them takes:
the JDK's `jlink --output DIR` is no J-Link flasher, Android's `am instrument` under `adb shell` is no
AppImage manager. A run-time value inside sbt's `-D…`, `-J…` or `++…`
word is that option's value, not a task named at run time.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

# Each blocked line with the allowed twin beside it: (shell, blocked, rule or category, allowed).
TWINS = [
    # Maven's dependency plugin: resolving or fetching is an install, reading the graph is the build's own
    (
        "posix",
        "mvn -B dependency:go-offline",
        "network.package-install",
        "mvn -B dependency:tree -Dincludes=org.slf4j",
    ),
    (
        "posix",
        "./mvnw dependency:get -Dartifact=org.example:tool:1.0",
        "network.package-install",
        "./mvnw -q dependency:build-classpath -Dmdep.outputFile=target/cp.txt",
    ),
    (
        "posix",
        "mvn dependency:resolve-plugins",
        "network.package-install",
        "mvn dependency:copy-dependencies -DoutputDirectory=target/lib",
    ),
    (
        "posix",
        "mvnd dependency:purge-local-repository",
        "network.package-install",
        "mvnd dependency:analyze -DfailOnWarning",
    ),
    # ... and its versions plugin: asking for newer releases is an install, setting the version is not
    (
        "posix",
        "mvn versions:display-plugin-updates",
        "network.package-install",
        "mvn versions:set -DnewVersion=3.1.0-SNAPSHOT -DprocessAllModules",
    ),
    ("posix", "./mvnw versions:use-latest-versions", "network.package-install", "./mvnw versions:commit"),
    ("posix", "mvn versions:update-properties", "network.package-install", "mvn versions:revert"),
    # the Maven wrapper's goal pins and fetches a distribution, as `gradle wrapper` does
    (
        "posix",
        "mvn -N wrapper:wrapper -Dmaven=3.9.9",
        "network.package-install",
        "./mvnw -N help:evaluate -q",
    ),
    ("posix", "mvn -N io.takari:maven:0.7.7:wrapper", "network.package-install", "mvn -N validate"),
    (
        "posix",
        "mvn org.apache.maven.plugins:maven-wrapper-plugin:3.3.2:wrapper",
        "network.package-install",
        "mvn org.apache.maven.plugins:maven-help-plugin:3.5.0:effective-pom",
    ),
    # Gradle's versions plugins ask the repositories for newer releases
    (
        "posix",
        "./gradlew dependencyUpdates -Drevision=release",
        "network.package-install",
        "./gradlew dependencies",
    ),
    (
        "posix",
        "./gradlew :core:dependencyUpdates --no-parallel",
        "network.package-install",
        "./gradlew :core:dependencies --configuration runtimeClasspath",
    ),
    ("posix", "gradle versionCatalogUpdate", "network.package-install", "gradle versionCatalogFormat"),
    ("powershell", ".\\gradlew.bat refreshVersions", "network.package-install", ".\\gradlew.bat build"),
    # JReleaser's sending tasks under Gradle, as `mvn jreleaser:deploy`
    ("posix", "./gradlew jreleaserFullRelease", "network.publish", "./gradlew jreleaserConfig"),
    (
        "posix",
        "./gradlew :cli:jreleaserRelease --no-daemon",
        "network.publish",
        "./gradlew :cli:jreleaserAssemble",
    ),
    ("posix", "gradle jreleaserDeploy -Pversion=2.0.1", "network.publish", "gradle jreleaserChangelog"),
    # an Android build's uploads to a distribution or crash service, the Play track promotion, an image push
    (
        "posix",
        "./gradlew assembleRelease appDistributionUploadRelease",
        "network.publish",
        "./gradlew assembleRelease bundleRelease",
    ),
    (
        "posix",
        "./gradlew :app:uploadCrashlyticsMappingFileProdRelease",
        "network.publish",
        "./gradlew :app:minifyProdReleaseWithR8",
    ),
    ("posix", "./gradlew promoteReleaseArtifact", "network.publish", "./gradlew lintRelease"),
    ("posix", "./gradlew :api:dockerPushImage", "network.publish", "./gradlew :api:dockerBuildImage"),
    # Bazel's explicit fetch, as `cargo fetch`; building fetches what it builds
    ("posix", "bazel fetch //...", "network.package-install", "bazel build //java/com/example/..."),
    ("posix", "bazelisk sync --only=maven", "network.package-install", "bazelisk test //..."),
    (
        "posix",
        'bazel --output_base="$O" fetch //...',
        "network.package-install",
        "bazel --output_base=$O build //x",
    ),
    # Coursier's JVMs are downloads
    ("posix", "export JAVA_HOME=$(cs java-home --jvm temurin:21)", "network.package-install", "cs --version"),
    ("posix", "cs java --jvm zulu:17 -version", "network.package-install", "cs java-home --help"),
    # a run-time value inside sbt's option words: the value of that option, never a task
    ("posix", "sbt ++$SCALA_VERSION console", "unverifiable.terminal-program", "sbt ++$SCALA_VERSION test"),
    (
        "posix",
        "sbt ++$SCALA_VERSION publishSigned",
        "network.publish",
        "sbt ++${SCALA_VERSION} clean coverage test",
    ),
    ("posix", 'sbt "++ $V" $TASK', "dynamic.arguments", 'sbt "++ $V" "project core" test'),
    (
        "posix",
        'sbt "++2.13.15; all $TESTS"',
        "dynamic.arguments",
        'sbt ";++$SCALA ;headerCheck ;scalafmtCheckAll"',
    ),
    (
        "posix",
        "sbt -Dsbt.version=$SBT -J-Xmx$HEAP",
        "dynamic.arguments",
        "sbt -Dsbt.version=$SBT -J-Xmx$HEAP it:test",
    ),
    # the JDK's jlink is no J-Link flasher
    (
        "posix",
        "JLinkExe -device STM32F407VG -if SWD -speed 4000 -CommanderScript flash.jlink",
        "destructive.attached-device",
        "jlink --add-modules java.base,java.net.http --strip-debug --no-man-pages --output build/runtime",
    ),
    (
        "powershell",
        "JLink.exe -device NRF52840_XXAA -if SWD -CommanderScript program.jlink",
        "destructive.attached-device",
        "jlink.exe --module-path build\\jmods --add-modules app --output build\\image",
    ),
    # Android's activity manager under `adb shell` is no AppImage manager; adb's own options come first
    (
        "posix",
        "adb -s emulator-5554 install -r app/build/outputs/apk/debug/app-debug.apk",
        "destructive.attached-device",
        "adb shell am instrument -w -e class com.example.LoginTest com.example.test/androidx.test.Runner",
    ),
    (
        "posix",
        "adb -s emulator-5554 shell am start -n com.example/.MainActivity",
        "destructive.attached-device",
        "adb shell am start -a android.intent.action.MAIN -n com.example/.Main",
    ),
    ("posix", "am -i firefox", "network.package-install", "adb shell am force-stop com.example.app"),
    ("posix", "adb -a shell", "destructive.attached-device", "adb -s emulator-5554 logcat -d"),
]


def test_jvm_build_lines_that_fetch_install_or_send_are_blocked() -> None:
    every_case([(shell, blocked, rule) for shell, blocked, rule, _ in TWINS], guard_blocks)


def test_their_everyday_twins_stay_allowed() -> None:
    every_case([(shell, allowed) for shell, _, _, allowed in TWINS], guard_allows)
