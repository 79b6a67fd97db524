package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

// kubectl is the calls elb-openapi makes: `apply -f -` of a ConfigMap (JSON), `get configmap
// [NAME] [-l SELECTOR] -o json`, `delete configmap NAME`, `get jobs|pods -l elb-job-id=ID -o
// json` (the Jobs and pods of an elastic-blast run) and `get nodes`. Everything lives in the
// default namespace; other namespaces are empty.
func kubectl(st *state, args []string) error {
	if len(args) == 0 {
		return fail("kubectl: no command")
	}
	pos, flags := kubectlFlags(args[1:])
	if ns := flags["-n"]; ns != "" && ns != "default" {
		if len(pos) > 1 {
			return fail("Error from server (NotFound): %s %q not found", plural(pos[0]), pos[1])
		}
		return printList(nil)
	}
	switch {
	case args[0] == "apply" && flags["-f"] == "-":
		return apply(st, os.Stdin)
	case args[0] == "delete" && len(pos) == 2 && isConfigMap(pos[0]):
		if err := os.Remove(st.path("configmaps", pos[1]+".json")); os.IsNotExist(err) {
			return fail("Error from server (NotFound): configmaps %q not found", pos[1])
		} else if err != nil {
			return err
		}
		fmt.Printf("configmap %q deleted\n", pos[1])
		return nil
	case args[0] == "get" && len(pos) >= 1 && isConfigMap(pos[0]):
		return getConfigMaps(st, pos[1:], flags["-l"])
	case args[0] == "get" && len(pos) == 1 && (pos[0] == "jobs" || pos[0] == "pods"):
		if err := st.materialize(); err != nil {
			return err
		}
		return getRunObjects(st, pos[0], flags["-l"])
	case args[0] == "get" && len(pos) == 1 && pos[0] == "nodes":
		fmt.Println("aks-blast-00000000-vmss000000   Ready    agent   42d   v1.31.4")
		return nil
	}
	return fail("kubectl %s: not faked", strings.Join(args, " "))
}

func isConfigMap(kind string) bool {
	return kind == "configmap" || kind == "configmaps" || kind == "cm"
}

func plural(kind string) string { return strings.TrimSuffix(kind, "s") + "s" }

// kubectlFlags splits positional arguments from -l/-o/-n/-f and --flag[=value].
func kubectlFlags(args []string) ([]string, map[string]string) {
	var pos []string
	flags := map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-l" || a == "-o" || a == "-n" || a == "-f":
			if i+1 < len(args) {
				flags[a] = args[i+1]
				i++
			}
		case strings.HasPrefix(a, "-"):
			k, v, _ := strings.Cut(a, "=")
			flags[k] = v
		default:
			pos = append(pos, a)
		}
	}
	return pos, flags
}

type object = map[string]any

func printList(items []object) error {
	if items == nil {
		items = []object{}
	}
	b, _ := json.MarshalIndent(object{"apiVersion": "v1", "kind": "List", "items": items, "metadata": object{"resourceVersion": ""}}, "", "    ")
	fmt.Println(string(b))
	return nil
}

func apply(st *state, in io.Reader) error {
	var obj object
	if err := json.NewDecoder(in).Decode(&obj); err != nil {
		return fail("error: error parsing STDIN: %v (the fake applies JSON only)", err)
	}
	meta, _ := obj["metadata"].(object)
	name, _ := meta["name"].(string)
	if obj["kind"] != "ConfigMap" || name == "" {
		return fail("error: the fake applies named ConfigMaps only")
	}
	path := st.path("configmaps", name+".json")
	verb := "configured"
	created := time.Now().UTC().Format(time.RFC3339)
	if b, err := os.ReadFile(path); err == nil {
		var old object
		if json.Unmarshal(b, &old) == nil {
			if om, ok := old["metadata"].(object); ok && om["creationTimestamp"] != nil {
				created, _ = om["creationTimestamp"].(string)
			}
		}
	} else {
		verb = "created"
	}
	meta["namespace"], meta["creationTimestamp"] = "default", created
	b, _ := json.Marshal(obj)
	if err := writeAtomic(path, b); err != nil {
		return err
	}
	fmt.Printf("configmap/%s %s\n", name, verb)
	return nil
}

// matches reports whether labels satisfy a selector of comma-separated key=value terms.
func matches(labels map[string]any, selector string) bool {
	for _, term := range strings.Split(selector, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(term), "=")
		if term == "" {
			continue
		}
		if got, _ := labels[k].(string); !ok || got != v {
			return false
		}
	}
	return true
}

func getConfigMaps(st *state, names []string, selector string) error {
	if len(names) == 1 {
		b, err := os.ReadFile(st.path("configmaps", names[0]+".json"))
		if os.IsNotExist(err) {
			return fail("Error from server (NotFound): configmaps %q not found", names[0])
		}
		if err != nil {
			return err
		}
		fmt.Println(string(b))
		return nil
	}
	ents, err := os.ReadDir(st.path("configmaps"))
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	var items []object
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		b, err := os.ReadFile(st.path("configmaps", e.Name()))
		if err != nil {
			continue // deleted under us
		}
		var obj object
		if json.Unmarshal(b, &obj) != nil {
			continue
		}
		meta, _ := obj["metadata"].(object)
		labels, _ := meta["labels"].(object)
		if matches(labels, selector) {
			items = append(items, obj)
		}
	}
	return printList(items)
}

// getRunObjects lists the Job (app=blast) or the pod of the run a selector elb-job-id=ID names:
// active or Running until the run's end, then succeeded; nothing once the run was deleted.
func getRunObjects(st *state, kind, selector string) error {
	rs, err := st.runs()
	if err != nil {
		return err
	}
	sort.Slice(rs, func(a, b int) bool { return rs[a].ID < rs[b].ID })
	var items []object
	now := time.Now()
	for _, r := range rs {
		labels := object{"app": "blast", "elb-job-id": r.ID}
		if r.Deleted || !matches(labels, selector) {
			continue
		}
		done := !now.Before(r.End)
		meta := object{"name": "batch-000-" + r.ID, "namespace": "default", "labels": labels, "creationTimestamp": r.Start.UTC().Format(time.RFC3339)}
		if kind == "jobs" {
			status := object{"active": 1, "startTime": r.Start.UTC().Format(time.RFC3339)}
			if done {
				status = object{"succeeded": 1, "startTime": r.Start.UTC().Format(time.RFC3339), "completionTime": r.End.UTC().Format(time.RFC3339),
					"conditions": []object{{"type": "Complete", "status": "True"}}}
			}
			items = append(items, object{"apiVersion": "batch/v1", "kind": "Job", "metadata": meta, "status": status})
			continue
		}
		phase, state := "Running", object{"running": object{"startedAt": r.Start.UTC().Format(time.RFC3339)}}
		if done {
			phase, state = "Succeeded", object{"terminated": object{"reason": "Completed", "exitCode": 0}}
		}
		items = append(items, object{"apiVersion": "v1", "kind": "Pod", "metadata": meta,
			"status": object{"phase": phase, "containerStatuses": []object{{"name": "blast", "state": state}}}})
	}
	return printList(items)
}
