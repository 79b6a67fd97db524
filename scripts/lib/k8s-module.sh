# Sourced by scripts/k8s-build.sh and scripts/realnode-build.sh: how both build Kubernetes commands
# from the Go module proxy. k8s.io/kubernetes is not meant to be required as a module (its go.mod
# replaces every staging module by ./staging/...), so a throwaway module requires it and replaces
# each staging module it needs by the published v0.X version of the same release.

# k8s_module NAME VERSION: write go.mod (module NAME, requiring k8s.io/kubernetes VERSION) in the
# current directory, and drop go.sum.
k8s_module() {
  local name=$1 version=$2 staging kmod req
  staging=v0.${version#v1.}
  kmod=$(go mod download -json "k8s.io/kubernetes@$version" | sed -n 's/.*"GoMod": "\(.*\)",/\1/p')
  req=$(awk '/^require \(/{r=1;next} r&&/^\)/{r=0} r{print $1" "$2}' "$kmod" | awk '$2=="v0.0.0"{print $1}')
  { printf 'module %s\n\ngo 1.26.0\n\nrequire k8s.io/kubernetes %s\n\nreplace (\n' "$name" "$version"
    grep -E '=> \./staging/' "$kmod" | awk '{print $1}' | while read -r m; do
      echo "$req" | grep -qx "$m" && printf '\t%s => %s %s\n' "$m" "$m" "$staging"; done
    printf ')\n'; } > go.mod
  rm -f go.sum
}

# k8s_ldflags VERSION: the -ldflags that stamp VERSION into the commands (kubectl version, the
# kubelet's and apiserver's /version), stripped.
k8s_ldflags() {
  local version=$1 minor v c
  minor=$(echo "$version" | cut -d. -f2)
  v=k8s.io/component-base/version; c=k8s.io/client-go/pkg/version
  echo "-s -w -X $v.gitVersion=$version -X $v.gitMajor=1 -X $v.gitMinor=$minor -X $v.gitTreeState=clean -X $v.buildDate=2026-01-01T00:00:00Z -X $c.gitVersion=$version -X $c.gitMajor=1 -X $c.gitMinor=$minor"
}
