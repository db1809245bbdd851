"""Data-science, ML and documentation tools: build output, converters, launchers, caches, hubs and hooks.

- The build folders of LaTeX, bookdown and notebook builders are build output by name: minted's `_minted`
  and `_minted-JOB`, bookdown's `_bookdown_files` and `_book`, myst-nb's `jupyter_execute`, LaTeX's
  `svg-inkscape` (results such as `mlruns`, `dvclive` and `_freeze` stay protected).
- Document converters' output options given a Makefile's run-time value (`pandoc -o $@ $<`, `jupyter
  nbconvert … --output $@`, `jupytext --output $@`, `quarto render --output $@`) are judged as `dot -o $@`
  is: only a literal output is judged (`pandoc -o ~/x.pdf` stays blocked).
- Multi-node launchers name another machine: `torchrun`/`python -m torch.distributed.run`/`accelerate
  launch` told a coordinator by host name or by a run-time value (`--master_addr net-g14`,
  `--rdzv_endpoint=$MASTER_ADDR:29400`), `deepspeed --hostfile`/`-H`/`--include host:0,1`, `horovodrun -H
  a:4,b:4`; a single node and `localhost` stay allowed.
- Deleting the shared Hugging Face cache (`hf cache rm|prune`, `huggingface-cli delete-cache`) is an
  uninstall; a version manager's global default (`pyenv global`, `asdf global`, `mise use -g`) is a write
  outside the project, as `git config --global` is; `python -m sphinx` is `sphinx-build`.
- Installs under ecosystem verbs: `dbt deps`, `quarto install tinytex`, `quarto add`, `quarto use template`.
- Remote services: CML's reporting commands, `hf auth …` and `hf cache verify` (as `hf login`).
- Jupyter Book's `--builder linkcheck` is Sphinx's link checker.
- Git filters, drivers and hooks installed by notebook tools and DVC (`nbstripout --install`, `nbdime
  config-git --enable`, `dvc install`), as `pre-commit install`.
- make's braced automatic variables in recipes (`"${@:.pdf=}.tex"`, `${<:.md=.tex}`, `${^}`) are run-time
  words, as `$<` is.
"""

from __future__ import annotations

import pytest
from conftest import guard_allows, guard_blocks

BLOCKED = [
    ("posix", "rm -rf mlruns", "destructive.recursive-delete"),
    ("posix", "rm -rf dvclive", "destructive.recursive-delete"),
    ("posix", "rm -rf _freeze", "destructive.recursive-delete"),
    ("posix", "rm -rf .snakemake", "destructive.recursive-delete"),
    ("posix", "pandoc -o ~/x.pdf in.md", "containment.write-outside-project"),
    ("posix", "pandoc in.md -o /etc/x.pdf", "containment.write-outside-project"),
    ("posix", "pandoc -o $HOME/x.pdf in.md", "containment.write-outside-project"),
    ("posix", "jupyter nbconvert --to html x.ipynb --output ~/x.html", "containment.write-outside-project"),
    ("posix", "jupytext --to py x.ipynb -o ~/x.py", "containment.write-outside-project"),
    ("posix", "asciidoctor -o ~/x.html x.adoc", "containment.write-outside-project"),
    ("posix", "rst2pdf -o ~/x.pdf in.rst", "containment.write-outside-project"),
    (
        "posix",
        "torchrun --nnodes=2 --nproc_per_node=8 --rdzv_id=100 --rdzv_backend=c10d "
        "--rdzv_endpoint=$MASTER_ADDR:29400 llfs_train.py",
        "network.locator",
    ),
    (
        "posix",
        "torchrun --nproc_per_node=$NUM_TRAINERS --nnodes=$NUM_NODES --node_rank=$NODE_RANK "
        "--master_addr=$MASTER_ADDR --master_port=$MASTER_PORT ./main.py",
        "network.locator",
    ),
    (
        "posix",
        "torchrun --nnodes=2 --nproc_per_node=4 --master_addr net-g14 --master_port 6666 "
        "--node_rank=0 main.py",
        "network.locator",
    ),
    ("posix", "torchrun --rdzv-endpoint node0:29500 train.py", "network.locator"),
    ("posix", "torchrun --nnodes=2 --master-addr=${HEAD_NODE_IP} train.py", "network.locator"),
    ("posix", "python -m torch.distributed.run --master_addr $MASTER_ADDR train.py", "network.locator"),
    ("posix", "python -m torch.distributed.launch --master_addr=net-g14 train.py", "network.locator"),
    ("posix", "accelerate launch --main_process_ip $MASTER_ADDR train.py", "network.locator"),
    ("posix", "torchrun --master_addr 10.0.0.5 train.py", "network.locator"),
    (
        "posix",
        "deepspeed --hostfile=hostfile --num_nodes=4 --num_gpus=8 finetune_mn.py "
        "--deepspeed ds_config_mn.json",
        "network.remote-service",
    ),
    ("posix", "deepspeed -H hostfile train.py", "network.locator"),
    ("posix", "deepspeed --include host1:0,1 train.py", "network.locator"),
    ("posix", "horovodrun -H host1:4,host2:4 python train.py", "network.locator"),
    ("posix", "horovodrun --hostfile hosts -np 8 python train.py", "network.remote-service"),
    ("posix", "hf cache rm model/bert-base-cased", "destructive.machine-state"),
    ("posix", 'hf cache rm $(hf cache ls --filter "accessed>1y" -q) -y', "destructive.machine-state"),
    ("posix", "hf cache prune", "destructive.machine-state"),
    ("posix", "huggingface-cli delete-cache", "destructive.machine-state"),
    ("posix", "asdf global python 3.10.13", "containment.write-outside-project"),
    ("posix", "pyenv global 3.10.13", "containment.write-outside-project"),
    ("posix", "rbenv global 3.2.0", "containment.write-outside-project"),
    ("posix", "nodenv global 20.1.0", "containment.write-outside-project"),
    ("posix", "mise use -g python@3.12", "containment.write-outside-project"),
    ("posix", "mise use --global node@20", "containment.write-outside-project"),
    ("posix", "rtx use -g node@20", "containment.write-outside-project"),
    (
        "posix",
        "python -m sphinx -T -E -b html -d _build/doctrees -D language=en . ~/html",
        "containment.write-outside-project",
    ),
    ("posix", "python3 -m sphinx -b linkcheck docs out", "network.http-client"),
    ("posix", "python -m mkdocs build -d ~/x", "containment.write-outside-project"),
    ("posix", "dbt deps --profiles-dir .", "network.package-install"),
    ("posix", "dbt deps", "network.package-install"),
    ("posix", "quarto install tinytex", "network.package-install"),
    ("posix", "quarto install chromium", "network.package-install"),
    ("posix", "quarto add quarto-ext/fontawesome", "network.package-install"),
    ("posix", "quarto install extension quarto-ext/fontawesome", "network.package-install"),
    ("posix", "quarto use template quarto-journals/jss", "network.package-install"),
    ("posix", "cml-publish model_results.png --md >> report.md", "network.remote-service"),
    ("posix", "cml-send-comment report.md", "network.remote-service"),
    ("posix", "cml-pr", "network.remote-service"),
    ("posix", "cml comment create report.md", "network.remote-service"),
    ("posix", "cml comment update report.md", "network.remote-service"),
    ("posix", "cml publish plot.png --md", "network.remote-service"),
    ("posix", "cml pr create .", "network.remote-service"),
    ("posix", "cml runner launch --cloud=aws", "network.remote-service"),
    ("posix", "cml tensorboard connect --logdir=logs", "network.remote-service"),
    ("posix", "hf auth login", "network.package-install"),
    ("posix", "hf auth logout", "network.package-install"),
    ("posix", "hf auth whoami", "network.package-install"),
    ("posix", "hf auth switch", "network.package-install"),
    ("posix", "hf cache verify meta-llama/Llama-3.2-1B-Instruct", "network.package-install"),
    ("posix", "jupyter-book build --all -W -n --keep-going --builder=linkcheck .", "network.http-client"),
    ("posix", "jupyter-book build . --builder linkcheck", "network.http-client"),
    ("posix", "jb build . --builder=linkcheck", "network.http-client"),
    ("posix", "nbstripout --is-installed || nbstripout --install", "unverifiable.git-config-exec"),
    ("posix", "nbdime config-git --enable", "unverifiable.git-config-exec"),
    ("posix", "nbdime config-git --enable --global", "unverifiable.git-config-exec"),
    ("posix", "dvc install", "unverifiable.git-config-exec"),
    ("posix", 'pandoc -o ~/x.pdf "${<:.md=.tex}"', "containment.write-outside-project"),
]

ALLOWED = [
    ("posix", "rm -rf _minted-main"),
    ("posix", "rm -rf _minted"),
    ("posix", "rm -f main.aux main.log main.toc && rm -rf _minted-main"),
    ("posix", "Rscript -e 'bookdown::clean_book()'; rm -rf _bookdown_files"),
    ("posix", "rm -r _bookdown_files/"),
    ("posix", "rm -rf _book"),
    ("posix", "rm -rf _site"),
    ("posix", "rm -rf .quarto"),
    ("posix", "rm -rf jupyter_execute"),
    ("posix", "rm -rf docs/_build/jupyter_execute"),
    ("posix", "rm -rf .jupyter_cache"),
    ("posix", "rm -rf svg-inkscape"),
    ("posix", "pandoc -o $@ --pdf-engine=lualatex --template=default.latex $<"),
    (
        "posix",
        "jupytext --from md --to ipynb --output - $^ | "
        "jupyter nbconvert --stdin --to html --execute --output $@",
    ),
    (
        "posix",
        "jupyter nbconvert --to notebook --config scripts/convert_config.py $temp_out.ipynb "
        "--output $temp_out.ipynb 1>&2",
    ),
    ("posix", "jupytext --to notebook --output $@ $<"),
    ("posix", "quarto render $< --output $@"),
    ("posix", "asciidoctor -o $@ $<"),
    ("posix", "rst2pdf -o $@ $<"),
    ("posix", "dot -Tsvg $< -o $@"),
    ("posix", "pandoc in.md -o build/out.pdf"),
    ("posix", "torchrun --master_addr localhost --nproc_per_node=2 train.py"),
    ("posix", "torchrun --master_addr=127.0.0.1 train.py"),
    ("posix", "torchrun --standalone --nproc_per_node=8 x.py"),
    ("posix", "torchrun --nproc_per_node=$NUM_GPUS train.py"),
    ("posix", "python -m torch.distributed.launch --nproc_per_node=2 train.py"),
    ("posix", "accelerate launch --main_process_ip 0.0.0.0 train.py"),
    ("posix", "accelerate launch --multi_gpu --main_process_port 29501 train.py"),
    ("posix", "deepspeed --num_gpus=2 train.py --deepspeed ds.json"),
    ("posix", "deepspeed --include localhost:0,1 train.py"),
    ("posix", "horovodrun -np 4 python train.py"),
    ("posix", "hf cache ls"),
    ("posix", "huggingface-cli scan-cache"),
    ("posix", "asdf local python 3.10.13"),
    ("posix", "pyenv local 3.10.13"),
    ("posix", "pyenv global"),
    ("posix", "mise use python@3.12"),
    ("posix", "python -m sphinx -b html docs docs/_build/html"),
    ("posix", "python -m mkdocs build"),
    ("posix", "dbt run"),
    ("posix", "dbt build --profiles-dir ."),
    ("posix", "quarto render"),
    ("posix", "quarto render report.qmd --to pdf"),
    ("posix", "quarto preview --help"),
    ("posix", "cml --help"),
    ("posix", "hf --help"),
    ("posix", "jupyter-book build ."),
    ("posix", "jb build . --builder=html"),
    ("posix", "nbstripout file.ipynb"),
    ("posix", "nbstripout --is-installed"),
    ("posix", "nbdime diff a.ipynb b.ipynb"),
    ("posix", 'pandoc -s --bibliography=bibliography.bib --toc -o "${@:.pdf=}.tex" "$<"'),
    ("posix", 'latexmk -xelatex -bibtex -jobname="${@:.pdf=}" "${@:.pdf=}.tex"'),
    ("posix", "pandoc ${<:.md=.tex} -o ${@}"),
    ("posix", "cat ${^} > all.txt"),
]


@pytest.mark.parametrize(("shell", "command", "expected"), BLOCKED)
def test_reaching_hosts_shared_state_and_outside_writes_block(
    shell: str, command: str, expected: str
) -> None:
    guard_blocks(shell, command, expected)


@pytest.mark.parametrize(("shell", "command"), ALLOWED)
def test_project_builds_and_local_runs_stay_allowed(shell: str, command: str) -> None:
    guard_allows(shell, command)
