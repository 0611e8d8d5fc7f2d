#!/usr/bin/env bash
# Keep the models a table made before they are replaced or removed.
#
#   bash deploy/keep_models.sh INSTALLED SHIPPED KEEP_IN
#
# "Fit to this set" and `tilescore train classifier --from` write the classifier they made into
# the installed models folder (INSTALLED, /opt/tilescore/models). Installing again replaces that
# folder with the shipped models (SHIPPED, the source's models/; empty on uninstall, which removes
# it): where INSTALLED holds anything SHIPPED does not hold byte for byte, the whole folder is
# first copied to KEEP_IN/models-kept-DATE (the data folder, which outlives an uninstall), and the
# copy is named on stdout. Nothing is copied when the installed models are the shipped ones. With
# SHIPPED "-" (uninstall: no source to compare with) the folder is kept where a fit or a fine-tune
# was installed in it: it then has previous/, the models that install replaced.
set -euo pipefail
installed=$1 shipped=$2 keep_in=$3
[ -d "$installed" ] || exit 0
if [ "$shipped" = "-" ]; then
  [ -d "$installed/previous" ] || exit 0
elif diff -rq "$shipped" "$installed" >/dev/null 2>&1; then
  exit 0
fi
kept="$keep_in/models-kept-$(date +%Y%m%d-%H%M%S)"
n=1
while [ -e "$kept" ]; do  # two in one second: never into (or over) an earlier copy
  kept="${kept%-[0-9]}-$n"
  n=$((n + 1))
done
mkdir -p "$keep_in"
cp -a "$installed" "$kept"
echo "the models this table made are kept in $kept: copy a model (its .onnx and .json) back into" \
  "the models folder and name it in default.json to use it again"
