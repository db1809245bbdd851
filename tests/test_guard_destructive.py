"""Destructive commands: every spelling of a delete, overwrite, history loss or scheduled job, through every
wrapper and inline program that can run it, and the harmless look-alikes that must stay allowed."""

from __future__ import annotations

import pytest
from conftest import assert_decided_as, every_case

from glmagent.guard import Decision, Policy


def check(command: str, shell: str) -> Decision:
    return Policy.default().check(command, shell)  # type: ignore[arg-type]


def _cases(backend: str, text: str) -> list[tuple[str, str, str]]:
    """`expected<TAB>command` lines -> (backend, expected, command)."""
    out = []
    for line in text.strip().splitlines():
        expected, command = line.split("\t", 1)
        out.append((backend, expected, command))
    return out


WRAPPERS_POSIX = """
destructive	pkexec rm -rf /
destructive	pkexec --user root rm -rf /
destructive	systemd-run rm -rf /home
destructive	systemd-run --user --unit x -p Foo=bar rm -rf /home
destructive	systemd-run --scope rm -rf x
destructive	run0 -u root rm -rf /
destructive	-@rm -rf ~
destructive	- rm -rf /
destructive	+rm -rf $HOME
destructive	unshare -r rm -rf x
destructive	unshare --mount --pid --fork rm -rf x
destructive	nsenter -t 1 -m rm -rf /
destructive	nsenter --target 1 --mount rm -rf /
destructive	firejail --noprofile rm -rf x
destructive	toybox rm -rf x
destructive	toybox sh -c 'rm -rf x'
destructive	perf record -- rm -rf x
destructive	perf stat rm -rf x
destructive	perf stat -e cycles rm -rf x
destructive	perf record -o out.data rm -rf x
destructive	perf trace rm -rf x
destructive	perf stat --pre 'rm -rf x' true
destructive	gdb -batch -ex run --args rm -rf x
destructive	gdb -nx --args rm -rf x
destructive	gdb --args rm -rf x
destructive	lldb -- rm -rf x
destructive	lldb -b -o run -- rm -rf x
destructive	screen -dm rm -rf x
destructive	screen -dmS name rm -rf x
destructive	screen -S name -dm rm -rf x
destructive	tmux new -d 'rm -rf x'
destructive	tmux new-session -d -s x 'rm -rf x'
destructive	tmux new-window 'rm -rf x'
destructive	tmux split-window -h 'rm -rf x'
destructive	tmux run-shell 'rm -rf x'
destructive	git bisect run rm -rf x
destructive	git bisect run sh -c 'rm -rf x'
block	git submodule foreach 'rm -rf x'
block	git submodule foreach --recursive 'rm -rf x'
block	git submodule foreach rm -rf x
destructive	sudo -u root rm -rf x
destructive	sudo -E -H -u root rm -rf x
destructive	sudo --user=root rm -rf x
destructive	runuser -u root -- rm -rf x
destructive	sg wheel 'rm -rf x'
destructive	sg wheel -c 'rm -rf x'
destructive	cgexec -g cpu:grp rm -rf x
destructive	systemd-inhibit --what=sleep rm -rf x
destructive	capsh -- -c 'rm -rf x'
destructive	setpriv --reuid 0 rm -rf x
destructive	prlimit --nofile=10 rm -rf x
destructive	numactl -C 0 rm -rf x
destructive	cpulimit -l 50 -- rm -rf x
destructive	trickle -d 10 rm -rf x
destructive	faketime '2020-01-01' rm -rf x
destructive	rlwrap rm -rf x
destructive	xvfb-run -a rm -rf x
destructive	dbus-launch rm -rf x
destructive	ssh-agent rm -rf x
destructive	ls | entr -r rm -rf x
destructive	ls | entr -s 'rm -rf x'
destructive	hyperfine --warmup 3 'rm -rf x'
destructive	hyperfine --prepare 'rm -rf x' 'sleep 1'
block	nix-shell --run 'rm -rf x'
block	nix develop -c rm -rf x
block	direnv exec . rm -rf x
block	docker exec c rm -rf /src
block	docker run --rm -v "$PWD:/w" -w /w alpine rm -rf /w
block	podman run --rm alpine sh -c 'rm -rf /x'
block	kubectl exec pod -- rm -rf x
destructive	mise exec -- rm -rf x
destructive	pyenv exec rm -rf x
destructive	rustup run stable rm -rf x
block	pipx run rm -rf x
destructive	sem rm -rf x
destructive	tini -- rm -rf x
destructive	schroot -c jail -- rm -rf x
destructive	timeout 5s sudo -u x env A=1 nice rm -rf x
destructive	host-spawn rm -rf x
containment.privilege-elevation	flatpak-spawn --host pkexec modprobe uhid
containment.privilege-elevation	toolbox run --container dev sudo ls
destructive	distrobox enter dev -- rm -rf x
destructive	distrobox-enter -n dev -- rm -rf x
destructive	multipass exec vm -- rm -rf x
destructive	podman unshare rm -rf x
destructive	doppler run -- rm -rf x
destructive	doppler run --command 'rm -rf x'
destructive	infisical run --env=dev -- rm -rf x
destructive	chamber exec svc -- rm -rf x
destructive	dotenv -- rm -rf x
destructive	env-cmd rm -rf x
destructive	retry -t 3 -- rm -rf x
destructive	rr record rm -rf x
destructive	steam-run rm -rf x
destructive	arch -x86_64 rm -rf x
destructive	watchexec -e py -- rm -rf x
block	watchexec rm -- -rf /
destructive	onchange '**/*' -- rm -rf x
destructive	lerna exec -- rm -rf x
destructive	nx exec -- rm -rf x
destructive	hatch env run -- rm -rf x
destructive	bear -- rm -rf x
destructive	ccache rm -rf x
destructive	xcrun --sdk macosx rm -rf x
destructive	devcontainer exec --workspace-folder . rm -rf x
destructive	dagger run rm -rf x
destructive	envchain aws rm -rf x
destructive	kcov out rm -rf x
destructive	concurrently "npm:watch" "rm -rf x"
destructive	concurrently "npm:build && rm -rf x"
destructive	cross-env-shell "rm -rf x"
destructive	start-server-and-test "rm -rf x" 3000 test
destructive	cargo watch -x check -s 'rm -rf x'
destructive	chokidar '**/*.js' -c 'rm -rf x'
destructive	rg --pre 'rm -rf x' pattern
destructive	sort --compress-program='rm -rf x' data.txt
destructive	ts-node -e "require('fs').rmSync('x', {recursive: true})"
destructive	envconsul -prefix app rm -rf x
destructive	envdir ./env rm -rf x
destructive	systemd-cat -t job rm -rf x
destructive	daemonize rm -rf x
destructive	lxc-attach -n c -- rm -rf x
destructive	nsjail -Mo -- rm -rf x
destructive	py-spy record -o x.svg -- rm -rf x
destructive	nyc --reporter=lcov rm -rf x
destructive	c8 rm -rf x
destructive	clinic doctor -- rm -rf x
destructive	foreman run rm -rf x
destructive	xterm -e rm -rf x
destructive	gnome-terminal -- rm -rf x
destructive	xfce4-terminal -e 'rm -rf x'
destructive	kitty rm -rf x
destructive	guix shell -- rm -rf x
destructive	bwrap --ro-bind / / --dev /dev rm -rf x
destructive	mpirun -np 2 rm -rf x
destructive	srun -N 1 rm -rf x
network	sbatch --wrap 'rm -rf x'
destructive	prime-run rm -rf x
destructive	wine64 cmd /c rd /s /q x
network.locator	xterm -display 203.0.113.10:0 -e ls
network.locator	mpirun --host 10.0.0.5 ./solver
network.locator	daemonize -o 10.0.0.1:80 ./x
destructive	cmake -E rm -rf /
destructive	cmake -E env X=1 rm -rf x
destructive	cmake -E chdir build rm -rf x
destructive.recursive-delete	cmake -E remove_directory x
containment.write-outside-project	cmake -E copy a.txt ../b.txt
unverifiable.command-option	go test -exec 'rm -rf x' ./...
unverifiable.command-option	go build -toolexec sudo ./...
unverifiable.command-option	mvn exec:exec -Dexec.executable=rm -Dexec.args="-rf x"
unverifiable.command-option	cargo --config 'target.x86_64-unknown-linux-gnu.runner="rm -rf x"' run
unverifiable.command-option	ed -s notes.txt
unverifiable.command-option	cmake -P /dev/stdin
"""

WRAPPERS_POWERSHELL = """
destructive	forfiles /p C:\\x /s /m *.log /c "cmd /c del /q @path"
destructive	forfiles /S /C "cmd /c rd /s /q @path"
destructive	conhost --headless cmd /c rd /s /q x
destructive	gsudo Remove-Item -Recurse x
destructive	wt cmd /c rd /s /q x
destructive	wt -w 0 new-tab -p Ubuntu rd /s /q x
destructive	wt sp -V pwsh -c "Remove-Item x -Recurse"
destructive	ubuntu2204.exe run rm -rf x
destructive	debian run rm -rf x
"""

HARMLESS_POSIX = """
allow	timeout 60 pytest
allow	env PYTHONPATH=src pytest
containment.privilege-elevation	sudo -u root ls
allow	screen -ls
allow	tmux ls
allow	tmux attach -t main
allow	perf stat pytest
allow	perf report
allow	gdb -batch -ex run --args ./a.out
allow	git bisect start
allow	git bisect good
allow	git bisect run pytest -q
allow	git submodule status
allow	git submodule deinit vendor/lib
allow	systemd-run --user --scope pytest
allow	unshare -r whoami
allow	hyperfine 'sleep 0.1'
allow	xvfb-run pytest
allow	distrobox enter dev -- make test
allow	doppler run -- npm test
allow	retry -t 3 -- make test
allow	arch -arm64 make test
allow	flatpak-spawn --host ls
allow	watchexec -e py -- pytest
allow	concurrently -k "npm:dev" "npm:api" "tsc -w"
allow	concurrently "npm:reset-*(!all)"
allow	concurrently -n watch: 'yarn:build:* --watch'
allow	rg -c 'rm -rf x' src
allow	sort -c data.txt
allow	ccache -s
allow	xcrun --show-sdk-path
allow	bear -- make
allow	tsx src/index.ts
allow	nyc --reporter=lcov mocha
allow	c8 -r html npm test
allow	foreman start
allow	mpirun -np 4 ./build/solver
allow	bwrap --ro-bind / / --dev /dev --unshare-net make test
allow	py-spy record -o profile.svg -- python app.py
network	sbatch job.sh
allow	xterm -display :0 -e make test
allow	cmake -E make_directory build
allow	cmake -E env CTEST_OUTPUT_ON_FAILURE=1 ctest
allow	cmake -E tar xf libzip-1.14.1.tar.xz
allow	cmake -E rm -rf build
allow	cmake -P cmake/scripts/gen.cmake
allow	go test -run TestX ./pkg/...
allow	go test $GOFLAGS ./...
allow	mvn test $MAVEN_ARGS
allow	cmake -DCMAKE_BUILD_TYPE=$config -S . -B build
allow	find . -name '*.go' -exec gofmt -l {} +
allow	mvn exec:java -Dexec.mainClass=app.Main
allow	chmod -R 755 build
allow	chmod -R a+rX docs
allow	chmod ug=rwX,o=rX -R build/dist
allow	chmod --recursive 0755 ./scripts
allow	chmod -R 775 storage build/cache
allow	chmod -R +x scripts
allow	chmod -R -w vendor/snapshots
allow	find target/codspeed -type f -exec chmod +x {} +
allow	find bin -name '*.sh' -exec chmod 755 {} \\;
allow	find . -name "*.sh" \\! -perm /a+x -exec chmod +x {} +
"""

GIT = """
destructive.git-rm	git rm -r x
destructive.git-rm	git rm -rf src
destructive.git-rm	git rm --force -r src
destructive.git-rm	git -C repo rm -r src
destructive.git-discard	git checkout -- .
destructive.git-discard	git checkout .
destructive.git-discard	git checkout -f
destructive.git-discard	git switch --discard-changes main
destructive.git-discard	git restore .
destructive.git-discard	git restore -W -S .
destructive.git-discard	git restore --source=HEAD~3 .
destructive.git-discard	git reset --hard
destructive.git-discard	git stash clear
destructive.git-discard	git stash drop
destructive.git-discard	git worktree remove --force x
destructive.git-discard	git submodule deinit -f --all
destructive.git-discard	git submodule deinit --force vendor/lib
destructive.git-discard	git -C app submodule update -f
destructive.git-history	git reflog expire --expire=now --all
destructive.git-history	git gc --prune=now
destructive.git-history	git prune
destructive.git-history	git branch -D feature
destructive.git-history	git branch --delete --force feature
destructive.git-history	git update-ref -d refs/heads/main
destructive.git-history	git filter-branch --tree-filter 'true' HEAD
destructive.git-history	git gc --aggressive --prune="1 hour"
destructive.git-history	bfg --replace-text secrets.txt
destructive.git-history	java -jar bfg-1.14.0.jar --delete-files id_rsa
destructive.git-history	git obliterate secrets.txt
destructive.git-history	git delete-merged-branches
destructive.git-history	git update-ref refs/heads/main HEAD~3
destructive.git-history	git repack -a -d
destructive.git-history	git repack -adf --window=250
destructive.git-history	git -C sub repack -d -a
dynamic.arguments	git tag -d $(git tag -l)
dynamic.arguments	git tag -l | xargs git tag -d
destructive.git-discard	git clear -f
destructive.git-discard	git undo --hard
destructive.git-discard	git force-clone https://example.com/x.git existing-dir
allow	git rm --cached -r x
allow	git rm -r --cached build/
allow	git rm --cached f
allow	git rm -r -n src
allow	git stash
allow	git gc --prune=never
allow	git repack -A -d
allow	git repack -Ad
allow	git repack -ad --keep-unreachable
allow	git repack --cruft -d
allow	git repack -a --delta-islands
allow	bfg --help
allow	git stash -u
allow	git stash pop
allow	git checkout main
allow	git checkout -b feature
allow	git checkout HEAD~1 -- file.py
allow	git restore --staged .
allow	git restore src/app.py
allow	git branch -d merged
allow	git gc
allow	git reset --soft HEAD~1
allow	git undo
allow	git update-ref refs/notes/review HEAD
allow	git tag -d v1.0
allow	zip -qr9 dist/a.zip build
allow	git tag -a $VERSION -m "Release $VERSION"
allow	git tag "${tag}"
"""

DESTRUCTIVE_POSIX = """
destructive.recursive-delete	tar -cvf test.tar test --remove-files
destructive.recursive-delete	tar -cf /dev/null src --remove-files
destructive.recursive-delete	zip -rm out.zip src
destructive.recursive-delete	zip -q -m -r out.zip src
destructive.recursive-delete	7z a -sdel x.7z src
allow	tar -cf build/src.tar src
allow	zip -r build/out.zip src -x '*.tmp'
allow	7z a "$ZIP" src
allow	rsync -av --delete --dry-run src/ /tmp/mirror/
destructive.rsync-delete	rsync -av --delete src/ backup/mirror/
destructive.machine-state	HISTSIZE=1 HISTFILESIZE=1
allow	export HISTSIZE=10000
network.local-server	/usr/sbin/in.telnetd -debug 23 &
network.local-server	xinetd -stayalive
destructive.crontab-remove	crontab file.txt
destructive.crontab-remove	echo '* * * * * x' | crontab -
destructive.crontab-remove	crontab -r
destructive.kill-all	pkill -f .
destructive.kill-all	pkill -9 -f '.*'
destructive.kill-all	killall -r .
destructive.kill-all	kill -9 -1
destructive.system-power	systemctl poweroff
destructive.system-power	sudo systemctl --force reboot
destructive.system-power	systemctl isolate rescue.target
destructive.system-power	init 0
destructive.system-power	loginctl terminate-user dev
destructive.system-power	busybox reboot
destructive.recursive-permissions	find . -exec chmod 777 {} +
destructive.recursive-permissions	find build -type f -exec chmod o+w {} +
destructive.recursive-permissions	find /usr/local/bin -type f -exec chmod +x {} +
destructive.recursive-permissions	find / -perm /u+x -exec chmod +x {} +
destructive.recursive-permissions	find ~/bin -type f | xargs chmod 755
destructive.recursive-permissions	find build/../.. -type f -exec chmod +x {} +
destructive.recursive-permissions	git ls-files | xargs chmod 644
destructive.machine-state	find build -type d | xargs chmod g+s
destructive.recursive-permissions	find . -exec chown bob {} ;
destructive.recursive-permissions	chattr -R +i .
destructive.recursive-permissions	chmod -R 755 .
destructive.recursive-permissions	chmod -R 755 ./
destructive.recursive-permissions	chmod -R 755 *
destructive.recursive-permissions	chmod -R 755 .github
destructive.recursive-permissions	chmod -R 777 build
destructive.recursive-permissions	chmod -R o+w build
destructive.recursive-permissions	chmod -R +x .
destructive.recursive-permissions	chmod -R =rwx build
destructive.recursive-permissions	chmod -R 000 src
destructive.recursive-permissions	chmod -R go-w .
destructive.recursive-permissions	chmod -R 755 build/../..
destructive.recursive-permissions	chmod -R 755 build /usr
destructive.recursive-permissions	chown -R me build
destructive.machine-state	chmod -R 4755 build
unverifiable	chmod -R 755 "$DIR"
destructive.truncating-write	mv x /dev/null
destructive.truncating-write	ln -sf /dev/null src/app.py
destructive.truncating-write	ln -sfn /dev/zero link
destructive.truncating-write	ln -sf a b c/
destructive.truncating-write	install -m 644 /dev/null f
destructive.truncating-write	cp /dev/null f
destructive.truncating-write	echo x | tee ~/f
destructive.overwrite-file	fallocate -p -o 0 -l 100 f
destructive.overwrite-file	srm f
destructive.overwrite-file	sed -i d src/app.py
destructive.overwrite-file	sed -i.bak -e '1,$d' src/app.py
destructive.overwrite-file	gsed --in-place '/.*/d' src/app.py
destructive.disk-format	zpool destroy tank
destructive.disk-format	lvremove -f vg/lv
destructive.disk-format	mdadm --zero-superblock /dev/sdb
destructive.disk-format	cryptsetup luksFormat /dev/sdb
destructive.disk-format	nvme format /dev/nvme0
destructive.data-store	docker system prune -af
destructive.data-store	docker volume rm v
destructive.data-store	dropdb mydb
destructive.data-store	redis-cli flushall
destructive.data-store	userdel -r bob
destructive.data-store	npx prisma migrate reset --force
destructive.data-store	npx prisma db push --accept-data-loss
destructive.data-store	npx knex migrate:rollback --all
destructive.data-store	npx sequelize-cli db:drop
destructive.data-store	rake db:migrate VERSION=0
destructive.data-store	alembic downgrade base
destructive.data-store	flyway clean
destructive.data-store	mix ecto.reset
destructive.data-store	php bin/console doctrine:schema:drop --force
destructive.data-store	pg_restore --clean --if-exists -d app app.dump
destructive.data-store	mongorestore --drop dump
destructive.data-store	sqlx database drop -y
destructive.data-store	drush sql-drop -y
destructive.data-store	wp db reset --yes
destructive.data-store	./yii migrate/fresh
destructive.data-store	rails db:seed:replant
destructive.data-store	zkCli.sh deleteall /
destructive.data-store	influx bucket delete -n metrics
destructive.data-store	memcflush --servers=localhost
destructive.data-store	nats stream rm orders -f
destructive.data-store	couchbase-cli bucket-delete -c localhost --bucket x
destructive.data-store	neo4j-admin database delete neo4j
destructive.data-store	cypher-shell "MATCH (n) DETACH DELETE n"
destructive.data-store	pg_dropcluster 14 main --stop
allow	npx prisma migrate dev
allow	sqlx migrate run
allow	drush cr
allow	wp db export
allow	zkCli.sh ls /
allow	influx query 'from(bucket: "m")'
allow	nats stream ls
allow	cypher-shell "MATCH (n) RETURN count(n)"
allow	npx prisma db push
allow	knex migrate:rollback
allow	alembic downgrade -1
allow	rake db:migrate
allow	pg_restore -l app.dump
allow	flyway migrate
allow	mix ecto.migrate
env.machine-discovery	crontab -l
destructive.machine-state	pkill -f uvicorn
destructive.machine-state	killall node
allow	systemctl status nginx
allow	find . -name '*.py' -exec grep -l foo {} +
allow	find . -type f -exec wc -l {} +
allow	echo x | tee -a f
allow	sed -i 's/a/b/' f
allow	sed -i '/^#/d' src/app.py
allow	sed -i '$d' src/app.py
allow	sed -i -e 's/a/b/' d
allow	sed '1,$d' src/app.py
allow	mv a.py b.py
allow	mv -f a b
allow	ln -s a b
allow	install -d build
allow	chmod +x a.sh
allow	rm f.txt
allow	unlink f.txt
allow	rm *.pyc
allow	rm build/*.o
destructive.forced-delete	rm *
destructive.forced-delete	rm -f ./*
destructive.forced-delete	sudo rm -- src/*
allow	rmdir -p a/b/c
allow	zfs list
allow	docker ps
"""

DESTRUCTIVE_POWERSHELL = """
destructive.system-power	Stop-Computer
destructive.system-power	Restart-Computer -Force
destructive.system-power	Invoke-Reboot
destructive.system-power	shutdown /s /t 0
destructive.disk-format	vssadmin delete shadows /all /quiet
destructive.disk-format	wbadmin delete catalog -quiet
destructive.disk-format	bcdedit /delete {current}
destructive.disk-format	cipher /w:C:\\
destructive.rsync-delete	robocopy src dst /MIR
destructive.rsync-delete	robocopy src dst /e /purge
destructive.rsync-delete	cmd /c robocopy a b /MOVE
destructive.registry	reg delete HKCU\\Software\\X /f
destructive.data-store	Remove-Database -Server localhost -Database MyTestDB
destructive.registry	reg add HKCU\\Software\\X /v Y /d 1 /f
destructive.registry	Remove-ItemProperty -Path HKCU:\\Software\\X -Name Y
destructive.registry	Remove-Item HKLM:\\Software\\X
destructive.registry	Set-ItemProperty -Path "HKLM\\SOFTWARE\\Policies\\X" -Name Y -Value 1
destructive.registry	New-ItemProperty HKCU\\Software\\X -Name Y -Value 1
destructive.truncating-write	Get-Process | Export-Csv -Path ~\\procs.csv
destructive.truncating-write	Get-Process | Export-Clixml ~\\p.xml
destructive.truncating-write	[IO.File]::Open('f.txt', 'Create')
destructive.truncating-write	New-Object IO.FileStream('f', 'Create')
destructive.forced-delete	Remove-Item * -Force
destructive.forced-delete	Remove-Item -Path .\\src\\*
destructive.forced-delete	forfiles /c "cmd /c del @file"
destructive.forced-delete	cmd /c forfiles /c "cmd /c del @file"
destructive.kill-all	taskkill /f /im *
destructive.kill-all	taskkill /F /FI "USERNAME eq dev"
destructive.data-store	wmic shadowcopy delete
destructive.recursive-permissions	attrib -r -s -h /s /d *
env.machine-discovery	vssadmin list shadows
allow	bcdedit /enum
allow	robocopy src dst /E
allow	reg query HKCU\\Software\\X
allow	Get-Process | Export-Csv -Path procs.csv -Append
allow	[IO.File]::OpenRead('f.txt')
allow	Remove-Item f.txt
allow	Remove-Item *.log
destructive.machine-state	taskkill /im node.exe
allow	Copy-Item a b
allow	Select-String -Path x -Pattern 'robocopy /MIR'
allow	Get-Help Export-Csv
"""

PAYLOADS = """
destructive.payload-delete	python -c "import os; os.unlink('x')"
destructive.payload-delete	python -c "import pathlib; pathlib.Path('x').unlink()"
destructive.payload-delete	python -c "from pathlib import Path; Path('src').rmdir()"
destructive.payload-delete	python -c "import os; os.removedirs('a/b')"
destructive.payload-delete	python -c 'from os import remove; remove("x")'
destructive.payload-delete	python -c 'import shutil as s; s.rmtree("x")'
destructive.payload-delete	node -e "require('fs').rm('x', {recursive: true}, () => {})"
destructive.payload-delete	node -e "require('fs/promises').rm('x', {recursive: true})"
destructive.payload-delete	node -e "fs.promises.unlink('x')"
destructive.payload-delete	perl -e 'use File::Path; rmtree("x")'
destructive.payload-delete	ruby -e 'File.delete("x")'
destructive.payload-delete	php -r 'unlink("x");'
destructive.payload-delete	lua -e 'os.remove("x")'
destructive.payload-delete	Rscript -e 'file.remove("x")'
destructive.payload-delete	julia -e 'rm("x"; recursive=true)'
destructive.payload-delete	tclsh <<< 'file delete -force x'
destructive.payload-delete	groovy -e 'new File("x").delete()'
destructive.payload-delete	jshell <<< 'new java.io.File("x").delete()'
destructive.payload-delete	deno eval "Deno.removeSync('x', {recursive: true})"
destructive.payload-write	python -c "open('src/app.py', 'w').write('')"
destructive.payload-write	python -c "from pathlib import Path; Path('x').write_bytes(b'')"
destructive.payload-write	python -c "import io; io.open('f', 'w')"
destructive.payload-write	node -e "require('fs').writeFileSync('x', '')"
destructive.payload-write	node -e "require('fs').truncateSync('x')"
destructive.payload-write	perl -e 'open(F, ">x")'
destructive.payload-write	ruby -e 'File.write("x", "")'
destructive.payload-write	php -r 'file_put_contents("x", "");'
destructive.payload-write	lua -e 'io.open("x", "w")'
destructive.payload-write	awk 'BEGIN { printf "" > "x" }'
destructive.payload-write	julia -e 'write("x", "")'
destructive	python -c "import subprocess; subprocess.run(['rm', '-rf', 'x'])"
destructive	node -e "require('child_process').execFileSync('rm', ['-rf', 'x'])"
destructive	perl -e 'system("rm", "-rf", "x")'
destructive	osascript -e 'do shell script "rm -rf x"'
destructive	julia -e 'run(`rm -rf x`)'
destructive	Rscript -e 'system("rm -rf x")'
unverifiable.payload-process	python -c "import os; os.popen('ls')"
unverifiable.payload-process	Rscript -e 'system2("ls")'
unverifiable.payload-process	groovy -e '"ls".execute()'
unverifiable.payload-process	expect -c 'spawn ls'
unverifiable.payload-process	echo 'exec ls' | tclsh
unverifiable.payload-process	node -e "process.binding('spawn_sync')"
unverifiable.payload-dynamic	python -c "import base64; exec(base64.b64decode('cHJpbnQoMSk='))"
unverifiable.payload-dynamic	python -c "import importlib; importlib.import_module('os')"
allow	python -c 'import sys; print(sys.version)'
allow	python -c "import importlib.metadata as m; print(m.version('x'))"
allow	python -c 'import base64; print(base64.b64encode(b"x"))'
allow	python -c "print(open('README.md').read())"
allow	python -c "open('log.txt', 'a').write('x')"
allow	python -c "import os; print(os.listdir('.'))"
allow	node -e 'console.log(1)'
allow	node -e "console.log(require('fs').readFileSync('x', 'utf8'))"
allow	perl -ne 'print if /foo/' f
allow	ruby -e 'puts File.read("x")'
allow	php -r 'echo PHP_VERSION;'
allow	Rscript -e 'print(1)'
allow	julia -e 'println(1)'
allow	awk -F, '{ print $2 > "/dev/stderr" }' f
allow	awk '$3 > 10 { print $1 }' f
allow	osascript -e 'display notification "done"'
allow	grep -rn 'shutil.rmtree' src/
"""

UNVERIFIABLE_POSIX = """
destructive.recursive-delete	tar --to-command='rm -rf x' -xf a.tar
unverifiable.command-option	tar -I 'sh -c "id"' -xf a.tar
unverifiable.command-option	tar -cf a.tar --checkpoint=1 --checkpoint-action=exec='id' .
unverifiable.command-option	zip -TT 'id' -T a.zip f
unverifiable.command-option	zip -TmTT=id a.zip f
unverifiable.command-option	man -P 'sh -c id' ls
unverifiable.command-option	vim -c ':!id' f
unverifiable.command-option	vi -c 'silent !ls' -c q
unverifiable.command-option	nvim --headless -c '!ls' -c q
unverifiable.command-option	emacs -batch --eval '(delete-directory "x" t)'
unverifiable.command-option	gdb -batch -ex 'shell id'
unverifiable.command-option	psql -c '\\! id'
unverifiable.command-option	sqlite3 db '.system id'
unverifiable.command-option	make SHELL='/tmp/x'
unverifiable.command-option	git grep --open-files-in-pager='id' foo
unverifiable.command-option	git -C repo bisect run ./check.sh
unverifiable.git-config-exec	git -c filter.x.clean='sh -c id' add .
destructive	git rebase -x 'rm -rf x' HEAD~1
destructive	git difftool --extcmd='rm -rf x'
destructive.truncating-write	find . -fprint out.txt
unverifiable.scheduled-job	at now
unverifiable.scheduled-job	echo ls | at 10:00
unverifiable.scheduled-job	batch
unverifiable.scheduled-job	echo ls | at -V now
unverifiable.scheduled-job	systemd-run --on-calendar=daily ls
unverifiable.terminal-input	tmux send-keys 'ls' Enter
unverifiable.terminal-input	screen -S s -X stuff 'ls'
unverifiable.terminal-input	xdotool type 'ls'
unverifiable.terminal-input	kitty @ send-text ls
allow	git -c color.ui=never log
env.machine-discovery	at -l
allow	tar -xzf a.tar.gz
allow	tar -czf a.tar.gz src
allow	zip -r a.zip src
allow	vim --version
allow	man ls
allow	git rebase -i HEAD~3
allow	git rebase -x pytest HEAD~3
allow	git difftool --tool=meld
allow	make test
allow	make -f other.mk build
allow	psql -f schema.sql
allow	sqlite3 db 'select 1'
env.machine-discovery	atq
allow	find . -name '*.py' -print
"""

UNVERIFIABLE_POWERSHELL = """
unverifiable.terminal-program	powershell.exe -noexit -command Set-Location C:\\x
unverifiable.terminal-program	pwsh -NoExit -File .\\x.ps1
unverifiable.terminal-program	cmd /k dir
allow	cmd /c dir
allow	pwsh -NoProfile -Command Get-Date
unverifiable.outside-program	MSBuild.exe C:\\Users\\Public\\config
unverifiable.outside-program	dotnet msbuild C:\\Users\\Public\\config
unverifiable.outside-program	dotnet test C:\\other\\tests.csproj
unverifiable.outside-program	MSBuild.exe %AppData%\\Roaming\\Microsoft\\SystemCertificates\\config
unverifiable.outside-program	dotnet test %PUBLIC%\\build
allow	msbuild .\\App.csproj /p:Version=%VERSION%
allow	msbuild /p:OutDir=%OUT%\\ App.sln
allow	msbuild "%sln%" /nologo /m /t:Clean,Build
allow	msbuild %MSBFLAGS% pgsql.sln
allow	python -m pytest -vv %TEST_SUBSET%
allow	msbuild .\\App.csproj /t:Build /p:Configuration=Release
allow	msbuild /t:Build /p:OutDir=C:/out/ App.sln
allow	dotnet build src/App/App.csproj -c Release /p:Version=1.0
unverifiable.scheduled-job	schtasks /create /tn x /tr calc.exe /sc daily
destructive	schtasks /create /tn x /tr "cmd /c rd /s /q C:\\x" /sc once /st 00:00
unverifiable.windows-launcher	runas /user:admin cmd
unverifiable.windows-launcher	rundll32 shell32.dll,ShellExec_RunDLL cmd
unverifiable.terminal-input	[System.Windows.Forms.SendKeys]::SendWait('x{ENTER}')
env.machine-discovery	schtasks /query
env.machine-discovery	Get-ScheduledTask
allow	wmic process list brief
allow	Get-CimInstance Win32_Process
"""


CASES = (
    _cases("posix", WRAPPERS_POSIX)
    + _cases("posix", GIT)
    + _cases("posix", PAYLOADS)
    + _cases("posix", UNVERIFIABLE_POSIX)
    + _cases("powershell", UNVERIFIABLE_POWERSHELL)
    + _cases("posix", DESTRUCTIVE_POSIX)
    + _cases("powershell", DESTRUCTIVE_POWERSHELL)
    + _cases("powershell", WRAPPERS_POWERSHELL)
    + _cases("posix", HARMLESS_POSIX)
)


def test_decision_and_category() -> None:
    def decided(backend: str, expected: str, command: str) -> None:
        decision = check(command, backend)
        if expected == "allow":
            assert decision.allowed, decision.reason
        else:
            assert not decision.allowed, command
            if expected == "block":
                pass  # the outer program may be refused first by a rule of its own (network, environment)
            else:
                assert_decided_as(backend, command, decision, expected)

    every_case(CASES, decided)


@pytest.mark.parametrize(
    ("payload", "joined"),
    [
        ("subprocess.run(['rm', '-rf', 'x'])", "rm -rf x"),
        ("execFileSync('rm', ['-rf', 'my dir'])", "rm -rf 'my dir'"),
        ('system("rm", "-rf", "x")', "rm -rf x"),
    ],
)
def test_argument_lists_in_a_payload_are_also_read_as_one_command(payload: str, joined: str) -> None:
    from glmagent.guard._payloads import string_literals

    assert joined in string_literals(payload)


def test_literals_apart_from_each_other_are_not_joined() -> None:
    from glmagent.guard._payloads import string_literals

    assert string_literals("run('rm', cwd='-rf')") == ["rm", "-rf"]


def test_the_gap_between_listed_literals_is_read_as_before() -> None:
    """What separates the words of an argument list (blanks, a comma, a bracket closing or opening) is now
    read with each blank run taken whole: every gap of up to eight blanks, commas, brackets and letters is
    a separator to both expressions or to neither."""
    import itertools
    import re

    from glmagent.guard._payloads import _LIST_GAP

    first = re.compile(r"\s*[\])]?\s*,\s*[\[(]?\s*")  # as first written: it tried every cut of a blank run
    for size in range(8):
        for letters in itertools.product(" \n])[(,a", repeat=size):
            gap = "".join(letters)
            assert (_LIST_GAP.fullmatch(gap) is None) == (first.fullmatch(gap) is None), repr(gap)
    assert _LIST_GAP.fullmatch(" " * 30_000) is None  # (a second before: each cut of the run was tried)


def test_a_base64_literal_run_as_a_command_is_read_decoded() -> None:
    command = "python -c \"import base64,os; os.system(base64.b64decode('cm0gLXJmIH4=').decode())\""
    assert_decided_as("posix", command, check(command, "posix"), "destructive")


@pytest.mark.parametrize(
    "command",
    [
        "python -c \"getattr(__import__('os'), 'system')('rm -rf x')\"",
        "node -e \"eval('require(\\\"child_process\\\")').execSync('rm -rf x')\"",
        "/usr/bin/pkexec rm -rf x",
        "'systemd-run' --user rm -rf x",
        "\\tmux new -d 'rm -rf x'",
        "echo ok && nsenter -t 1 -m -- rm -rf /",
        "sudo -u dev perf stat -- rm -rf x",
        "timeout 5 gdb --args rm -rf x",
    ],
)
def test_mutants_of_wrapped_and_dynamic_deletes_stay_destructive(command: str) -> None:
    assert_decided_as("posix", command, check(command, "posix"), "destructive")


def test_find_like_tools_and_sed_writes() -> None:
    def decided(command: str, expected: str | None) -> None:
        decision = check(command, "posix")
        assert decision.rule_id == expected, decision.reason

    cases = [
        ("fd -e log -X rm -f", "destructive.recursive-delete"),
        ("fdfind . -x rm", "destructive.recursive-delete"),
        ("fd -e py -Hx sh -c 'id'", "unverifiable.command-option"),
        ("fd -e py -x sh -c 'rm -rf x'", "destructive.recursive-delete"),
        ("fd -e py -x sh -c 'id'", None),
        ("fd PATTERN -x git status", None),
        ("yarn rimraf dist", "destructive.recursive-delete"),
        ("sed -n '/foo/w /var/tmp/out.txt' f", "destructive.payload-write"),
        ("sed 's/a/b/w ../changes.txt' f", "destructive.payload-write"),
        # a new file in the project is written as `> changes.txt` writes it (a fresh checkout has none)
        ("sed 's/a/b/w changes.txt' f", None),
        ("sed -n '/foo/w out.txt' f", None),
        ("sed 's/a/b/w /dev/stdout' f", None),
        ("sed -i 's/word/other/g' f", None),
        ("sed 's/w/W/g' f", None),
        ("fd -e py", None),
    ]
    every_case(cases, decided)


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ("python -c '{}'".format("from os import a, " * 1500), None),  # imports nothing that runs
        ("python -c '{}system'".format("from os import a, " * 1500), "unverifiable.payload-process"),
        ("perl -e '{}'".format("open F, " * 3000), None),
        ("ruby -e '{}'".format("File.open(a, " * 2000), None),
        ("awk '{}'".format("print a " * 3000), None),
        ("Rscript -e '{}'".format("file(a, " * 3000), None),
        # past what the work budget pays for searching (`PAYLOAD_CHARS_PER_UNIT`): too large, unsearched
        ("python -c '{}'".format("from os import a, " * 3000), "size.exceeded"),
    ],
)
def test_payload_patterns_decide_long_hostile_text(payload: str, expected: str | None) -> None:
    # How long these take is measured by bench/policy_bench.py (its "payload patterns" inputs).
    assert check(payload, "posix").rule_id == expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("python3 <<'EOF'\nimport shutil\nshutil.rmtree('x')\nEOF", "destructive.payload-delete"),
        ("node <<EOF\nrequire('fs').writeFileSync('a', '')\nEOF", "destructive.payload-write"),
        ("Rscript - <<EOF\nunlink('x', recursive = TRUE)\nEOF", "destructive.payload-delete"),
        ("echo 'unlink(\"x\")' | R --no-save", "destructive.payload-delete"),
        ("Rscript analysis.R", None),
    ],
)
def test_programs_read_from_stdin_are_scanned(command: str, expected: str | None) -> None:
    assert check(command, "posix").rule_id == expected
