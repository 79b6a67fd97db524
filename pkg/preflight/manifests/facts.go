package manifests

import (
	"encoding/json"
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// HPA is what the rules need of a HorizontalPodAutoscaler (autoscaling/v1 and v2 alike).
type HPA struct {
	Name        string
	Namespace   string
	TargetKind  string
	TargetName  string
	MinReplicas int
	MaxReplicas int
	Obj         Object
}

type hpaJSON struct {
	Spec struct {
		ScaleTargetRef struct {
			Kind string `json:"kind"`
			Name string `json:"name"`
		} `json:"scaleTargetRef"`
		MinReplicas *int32 `json:"minReplicas"`
		MaxReplicas int32  `json:"maxReplicas"`
	} `json:"spec"`
}

// Facts are the typed objects of the input that the rules read.
type Facts struct {
	Deployments    []*appsv1.Deployment
	StatefulSets   []*appsv1.StatefulSet
	HPAs           []HPA
	PVCs           []*corev1.PersistentVolumeClaim
	PVs            []*corev1.PersistentVolume
	StorageClasses []*storagev1.StorageClass
	PDBs           []*policyv1.PodDisruptionBudget
	ConfigMaps     []*corev1.ConfigMap
	// Where maps "kind/name" subjects to the object's place in the input.
	Where map[string]Object
}

// Subject is how results name an object: "deployment/web", "hpa/web", "storageclass/nfs".
func Subject(kind, name string) string {
	switch kind {
	case "HorizontalPodAutoscaler":
		return "hpa/" + name
	case "PersistentVolumeClaim":
		return "pvc/" + name
	case "PersistentVolume":
		return "pv/" + name
	case "PodDisruptionBudget":
		return "pdb/" + name
	}
	return strings.ToLower(kind) + "/" + name
}

// Decode turns objects into typed facts. A field of the wrong type is an *InputError naming
// the object's file and line.
func Decode(objs []Object) (*Facts, error) {
	f := &Facts{Where: map[string]Object{}}
	for _, o := range objs {
		f.Where[Subject(o.Kind, o.Name)] = o
		var err error
		group := strings.SplitN(o.APIVersion, "/", 2)[0]
		switch o.Kind {
		case "Deployment":
			err = decodeInto(o, &f.Deployments)
		case "StatefulSet":
			err = decodeInto(o, &f.StatefulSets)
		case "HorizontalPodAutoscaler":
			var h hpaJSON
			if err = unmarshal(o, &h); err == nil {
				min := 1
				if h.Spec.MinReplicas != nil {
					min = int(*h.Spec.MinReplicas)
				}
				f.HPAs = append(f.HPAs, HPA{Name: o.Name, Namespace: o.Namespace, TargetKind: h.Spec.ScaleTargetRef.Kind,
					TargetName: h.Spec.ScaleTargetRef.Name, MinReplicas: min, MaxReplicas: int(h.Spec.MaxReplicas), Obj: o})
			}
		case "PersistentVolumeClaim":
			err = decodeInto(o, &f.PVCs)
		case "PersistentVolume":
			err = decodeInto(o, &f.PVs)
		case "StorageClass":
			if group == "storage.k8s.io" {
				err = decodeInto(o, &f.StorageClasses)
			}
		case "PodDisruptionBudget":
			err = decodeInto(o, &f.PDBs)
		case "ConfigMap":
			if o.APIVersion == "v1" {
				err = decodeInto(o, &f.ConfigMaps)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return f, nil
}

// decodeInto unmarshals o as a T and appends it to list.
func decodeInto[T any](o Object, list *[]*T) error {
	v := new(T)
	if err := unmarshal(o, v); err != nil {
		return err
	}
	*list = append(*list, v)
	return nil
}

func unmarshal(o Object, v any) error {
	if err := json.Unmarshal(o.JSON, v); err != nil {
		return &InputError{File: o.File, Line: o.Line, Msg: fmt.Sprintf("%s %s: %s", o.Kind, o.Name, jsonMsg(err))}
	}
	return nil
}

// Deployment returns the Deployment named name.
func (f *Facts) Deployment(name string) *appsv1.Deployment { return named(f.Deployments, name) }

// named returns the object of objs called name, or the zero T (nil).
func named[T interface{ GetName() string }](objs []T, name string) T {
	for _, o := range objs {
		if o.GetName() == name {
			return o
		}
	}
	var none T
	return none
}

// HPAFor returns the HPA that scales Deployment name, or nil.
func (f *Facts) HPAFor(kind, name string) *HPA {
	for i := range f.HPAs {
		h := &f.HPAs[i]
		if h.TargetName == name && (h.TargetKind == kind || h.TargetKind == "") {
			return h
		}
	}
	return nil
}

// PVC returns the claim named name.
func (f *Facts) PVC(name string) *corev1.PersistentVolumeClaim { return named(f.PVCs, name) }

// PVFor returns the PV bound to claim (by the claim's volumeName or the PV's claimRef).
func (f *Facts) PVFor(claim *corev1.PersistentVolumeClaim, claimName string) *corev1.PersistentVolume {
	for _, pv := range f.PVs {
		if claim != nil && claim.Spec.VolumeName != "" && pv.Name == claim.Spec.VolumeName {
			return pv
		}
		if ref := pv.Spec.ClaimRef; ref != nil && ref.Name == claimName {
			return pv
		}
	}
	return nil
}

// StorageClass returns the class named name; for "" the one marked default.
func (f *Facts) StorageClass(name string) *storagev1.StorageClass {
	for _, s := range f.StorageClasses {
		if name == "" && (s.Annotations["storageclass.kubernetes.io/is-default-class"] == "true") {
			return s
		}
		if name != "" && s.Name == name {
			return s
		}
	}
	return nil
}

// PDBsFor returns the PDBs whose selector matches the pod labels.
func (f *Facts) PDBsFor(podLabels map[string]string) []*policyv1.PodDisruptionBudget {
	var out []*policyv1.PodDisruptionBudget
	for _, p := range f.PDBs {
		if p.Spec.Selector == nil {
			continue
		}
		sel, err := metav1.LabelSelectorAsSelector(p.Spec.Selector)
		if err != nil || sel.Empty() {
			continue
		}
		if sel.Matches(labels.Set(podLabels)) {
			out = append(out, p)
		}
	}
	return out
}
