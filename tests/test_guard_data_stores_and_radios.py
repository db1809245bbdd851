"""Key-value stores, message brokers and SQL Server tooling deleting what they hold, and radios driven from
the shell.

A database console's SQL is read wherever its option stands (`psql mydb -c SQL`, `sqlcmd -S x -Q SQL`), and
SQL only known at run time is unverifiable. etcd keys, RabbitMQ's nodes, users and queues, Kafka's topics
and consumer groups, Consul's keys, a compose project's volumes and dbatools' database removals and
restores are data nobody can get back; a SQL `RESTORE DATABASE` overwrites one. The aircrack and hcx
suites, WPA crackers and Bluetooth scans, pairings and adapter changes reach the radios around the machine.
Listing and reading stay allowed.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

BLOCKED = [
    ("posix", 'etcdctl del "" --prefix', "destructive.data-store"),
    ("posix", "etcdctl del $key", "destructive.data-store"),
    ("posix", "etcdctl rm /endpoints/api/tomcat1", "destructive.data-store"),
    # options before the command (`--data-dir`, `--cacert`) are read as options, not as its first operand
    (
        "posix",
        "etcdctl --data-dir /var/lib/etcd-from-backup snapshot restore /opt/snapshot-pre-boot.db",
        "destructive.data-store",
    ),
    ("posix", "etcdctl --cacert /etc/ssl/ca.crt del /app", "destructive.data-store"),
    ("posix", "rabbitmqctl reset", "destructive.data-store"),
    ("posix", "rabbitmqctl -n rabbit1@host stop_app", "destructive.data-store"),
    ("posix", "rabbitmqctl delete_user guest", "destructive.data-store"),
    ("posix", "rabbitmqctl purge_queue default.DQ", "destructive.data-store"),
    ("powershell", "call rabbitmqctl.bat delete_vhost macts", "destructive.data-store"),
    ("posix", "rabbitmqadmin delete queue name=jobs", "destructive.data-store"),
    ("posix", "./kafka-topics.sh --zookeeper zk:2181 --delete --topic orders", "destructive.data-store"),
    ("posix", "kafka-consumer-groups --group app --reset-offsets --to-earliest --execute", "destructive"),
    ("posix", "consul kv delete -recurse config/", "destructive.data-store"),
    ("posix", "docker compose down -v --remove-orphans", "destructive.data-store"),
    ("posix", "docker-compose down --volumes", "destructive.data-store"),
    (
        "powershell",
        "Remove-DbaAgDatabase -SqlInstance sql1 -Database x -Confirm:$false",
        "destructive.data-store",
    ),
    ("powershell", "Restore-DbaDatabase -SqlInstance sql1 -Path E:\\Backups", "destructive.data-store"),
    (
        "powershell",
        "sqlcmd -Q \"RESTORE DATABASE [app] FROM DISK = N'C:\\b\\app.bak'\"",
        "destructive.data-store",
    ),
    ("posix", "hciconfig hci0 up", "network.socket"),
    ("posix", "hciconfig hci0 piscan", "network.socket"),
    ("posix", "bluetoothctl scan on", "network.socket"),
    ("posix", "rfcomm bind 0 $mac 6", "network.socket"),
    ("posix", "l2ping -f 00:11:22:33:44:55", "network.socket"),
    ("posix", "hcitool lescan", "network.socket"),
    ("posix", "hcxpcapngtool -o wifi_hash.22000 capture.cap", "network.socket"),
    ("posix", "pyrit -r capture.pcap attack_db", "network.socket"),
    ("posix", "airolib-ng crackwpa --import passwd password.txt", "network.socket"),
    # SQL only known at run time, given to SQL Server's console as to psql's
    ("powershell", "sqlcmd -S localhost -Q $query_del_db", "dynamic.script"),
    ("posix", 'psql mydb -c "$SQL"', "dynamic.script"),  # options after the database name are read
    ("posix", 'psql mydb -c "DROP TABLE users"', "destructive.data-store"),
    # PowerShell's SQL Server commands: their parameters bind in any case, by prefix, and as `-Name:value`
    ("powershell", "Invoke-Sqlcmd -Query $query -ServerInstance . -QueryTimeout 65535", "dynamic.script"),
    ("powershell", "Invoke-Sqlcmd -query:$q", "dynamic.script"),
    ("powershell", "Invoke-Sqlcmd -Qu $q -TrustServerCertificate", "dynamic.script"),
    ("powershell", "Invoke-Sqlcmd -ServerInstance . -SuppressProviderContextWarning $sql", "dynamic.script"),
    ("powershell", "Invoke-Sqlcmd @sqlParams", "dynamic.script"),
    ("powershell", "Invoke-Sqlcmd -InputFile $file", "dynamic.script"),
    ("powershell", "Invoke-DbaQuery -SqlInstance . -Query $q", "dynamic.script"),
    ("powershell", 'Invoke-DbaQuery -SqlInstance . -Query "DROP DATABASE app"', "destructive.data-store"),
    ("powershell", "Invoke-Sqlcmd -Query:'DROP TABLE users'", "destructive.data-store"),
    ("powershell", 'Invoke-SqlQuery -Query "TRUNCATE TABLE users"', "destructive.data-store"),
    # column stores' and query engines' consoles read their query option as psql does
    ("posix", 'clickhouse-client --database="$DB" --query "$SQL"', "dynamic.script"),
    ("posix", 'clickhouse-client --query="$SQL"', "dynamic.script"),
    ("posix", 'cqlsh -k app -e "$CQL"', "dynamic.script"),
    ("posix", 'trino --catalog hive --execute "$SQL"', "dynamic.script"),
    ("posix", 'hive -e "$HQL"', "dynamic.script"),
    ("posix", 'impala-shell -q "$SQL"', "dynamic.script"),
    ("posix", 'spark-sql -e "DROP TABLE events"', "destructive.data-store"),
    ("posix", "trino --execute 'TRUNCATE TABLE events'", "destructive.data-store"),
    ("posix", "hive", "unverifiable.terminal-program"),  # the console waits at the terminal
]

ALLOWED = [
    ("posix", "etcdctl get /config --prefix"),
    ("posix", "etcdctl --cacert ca.crt get /config/app"),
    ("posix", "etcdctl member list"),
    ("posix", "rabbitmqctl list_queues"),
    ("posix", "rabbitmqctl status"),
    ("posix", "rabbitmqadmin list queues"),
    ("posix", "kafka-topics.sh --describe --topic orders"),
    ("posix", "docker compose down"),
    ("posix", "docker compose down --remove-orphans"),
    ("powershell", "Get-DbaDatabase -SqlInstance localhost"),
    ("posix", "psql -c 'select count(*) from users'"),
    ("posix", "hciconfig"),
    ("posix", "hciconfig -a"),
    ("posix", "bluetoothctl devices"),
    ("posix", 'psql mydb -c "select count(*) from users"'),
    ("powershell", 'sqlcmd -S tcp:127.0.0.1,1433 -Q "select 1"'),
    ("powershell", "sqlcmd -S localhost -d app -E -b -i scripts\\init.sql"),
    ("powershell", 'Invoke-Sqlcmd -ServerInstance . -Database app -Query "SELECT 1"'),
    (
        "powershell",
        "Invoke-Sqlcmd 'SELECT name FROM sys.databases' -ServerInstance . -TrustServerCertificate",
    ),
    ("powershell", "Invoke-Sqlcmd -query:'SELECT 1' -OutputSqlErrors:$true"),
    ("powershell", "Invoke-Sqlcmd -InputFile .\\db\\schema.sql -ServerInstance ."),
    ("powershell", "Invoke-DbaQuery -SqlInstance . -File .\\db\\seed.sql"),
    ("powershell", "Get-Help Invoke-Sqlcmd"),
    ("posix", 'clickhouse-client --query "SELECT count() FROM events"'),
    ("posix", "clickhouse-client --multiquery < schema.sql"),
    ("posix", "cqlsh -f schema.cql"),
    ("posix", "trino --execute 'SELECT 1'"),
    ("posix", "spark-sql -e 'SHOW TABLES'"),
    ("posix", "echo 'SELECT 1' | trino"),
    ("posix", "beeline --version"),
]


def test_data_store_deletes_and_radio_attacks_block() -> None:
    every_case(BLOCKED, guard_blocks)


def test_listing_and_reading_stay_allowed() -> None:
    every_case(ALLOWED, guard_allows)
