"""vim's and Neovim's start-up commands and files are read, not refused whole.

Neovim plugins run their tests and build their docs headless (`nvim --headless -u tests/init.lua -c
"PlenaryBustedDirectory tests"`, `nvim -l scripts/gendocs.lua`). An Ex command line may run anything
(`:!cmd`, `:call system()`, `:lua os.execute()`), so it is read command by command: quitting, options,
plugins by name, the project's own files, plenary's runner and a plain Lua call on a module count as safe;
any other command, an expression, a variable, or a path leaving the project blocks. Files given with `-u`,
`-S`, `-s` and `-l` are judged where they lie. An editor given nothing that ends it waits for the terminal.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

ALLOWED = [
    ("posix", "nvim --headless -c 'PlenaryBustedDirectory tests'"),
    (
        "posix",
        'nvim --headless --noplugin -u scripts/minimal_init.vim -c "PlenaryBustedDirectory tests/plenary/ '
        "{minimal_init = 'tests/minimal_init.vim', sequential = true}\"",
    ),
    ("posix", "nvim --headless -c 'luafile scripts/generate_luassert_types.lua' -c 'qa!'"),
    ("posix", 'nvim --headless -u docgen/minimal_init.vim -c "cd ./docgen" -c "source init.lua" -c \'qa\''),
    ("posix", "nvim --headless --noplugin -c 'packadd plenary.nvim' -c 'set rtp+=. | runtime plugin/x.vim'"),
    ("posix", "nvim -l scripts/gendocs.lua --out doc/x.txt"),
    ("posix", "nvim --headless --clean -u ./scripts/gendoc.lua"),
    ("posix", "nvim --headless -u scripts/init.lua -c \"lua require('mini.doc').generate()\" -c 'qa!'"),
    (
        "posix",
        "nvim --headless -c 'lua MiniTest.run({ execute = { reporter = MiniTest.gen_reporter.stdout() } })'",
    ),
    ("posix", "vim -c 'silent! qa'"),
    ("posix", "vim -u NONE -c 'syntax on' -c 'qa'"),
    ("posix", "nvim --version"),
    ("powershell", "nvim --headless -c 'PlenaryBustedDirectory tests'"),
]

BLOCKED = [
    ("posix", "vim -c '!id' f", "unverifiable.command-option"),
    ("posix", "vim -c ':set shell=/bin/bash|shell'", "unverifiable.command-option"),
    ("posix", "nvim --headless --cmd '!ls' -c q", "unverifiable.command-option"),
    ("posix", "nvim --headless +'!id'", "unverifiable.command-option"),
    ("posix", "vim -c 'call system(\"id\")' -c q", "unverifiable.command-option"),
    (
        "posix",
        "nvim --headless -c \"lua vim.fn.delete('./tests/.deps', 'rf')\" +q",
        "unverifiable.command-option",
    ),
    ("posix", "nvim --headless -c 'lua os.execute(\"id\")' -c q", "unverifiable.command-option"),
    ("posix", "nvim --headless -c \"lua require('lazy').sync()\" -c qa", "unverifiable.command-option"),
    ("posix", "nvim --headless -c 'lua require(string.char(105, 111)).open(\"x\")' -c q", "unverifiable"),
    ("posix", "nvim --headless -c 'TSUpdateSync' -c q", "unverifiable.command-option"),  # downloads parsers
    ("posix", "nvim --headless -c 'helptags ALL' -c q", "unverifiable.command-option"),  # plugins' folders
    ("posix", "vim -c 'wq' /etc/hosts", "containment.write-outside-project"),  # writes the buffer
    ("posix", "vim -c '%s/a/b/g' -c 'wq' /etc/hosts", "containment.write-outside-project"),
    ("posix", 'nvim --headless -c "PlenaryBustedDirectory ${TESTS_DIR}"', "unverifiable.command-option"),
    ("posix", "nvim --headless -c 'source /tmp/x.vim' -c q", "unverifiable.outside-program"),
    ("posix", "nvim --headless -c 'set rtp+=/tmp/x' -c q", "unverifiable"),
    ("posix", "nvim --headless -c 'PlenaryBustedDirectory ../other'", "unverifiable.outside-program"),
    ("posix", "nvim -u /tmp/evil.lua --headless", "unverifiable.outside-program"),
    ("posix", "nvim -l /tmp/x.lua", "unverifiable.outside-program"),
    ("posix", "cd /tmp && nvim --headless -c 'source x.vim' -c q", "unverifiable.outside-program"),
    ("posix", "echo '!id' | vim -es", "unverifiable.command-option"),
    ("posix", "vim -c 'set nu' src/app.py", "unverifiable.terminal-program"),  # nothing ends it
    ("posix", "vim +10 src/app.py", "unverifiable.terminal-program"),
    ("posix", "nvim -S", "unverifiable.terminal-program"),
]


def test_plugin_tests_and_doc_builds_run_headless_are_allowed() -> None:
    every_case(ALLOWED, guard_allows)


def test_commands_that_run_code_leave_the_project_or_wait_for_a_terminal_are_blocked() -> None:
    every_case(BLOCKED, guard_blocks)
