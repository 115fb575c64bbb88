package record

import "bytes"

// tableID returns the table a data-API resource name is about: the ID
// after "tables/" in projects/P/instances/I/tables/T (also when an
// authorized view of T follows), or the view's ID in
// projects/P/instances/I/materializedViews/V, which has a key space of
// its own. It returns "" for anything else.
func tableID(name []byte) string {
	for _, collection := range [][]byte{[]byte("/tables/"), []byte("/materializedViews/")} {
		if i := bytes.Index(name, collection); i >= 0 {
			id := name[i+len(collection):]
			if j := bytes.IndexByte(id, '/'); j >= 0 {
				id = id[:j]
			}
			return string(id)
		}
	}
	return ""
}

// InstanceName returns the resource name of a Bigtable instance,
// projects/P/instances/I, as the data API's requests start with it.
func InstanceName(project, instance string) string {
	return "projects/" + project + "/instances/" + instance
}

// inInstance reports whether the resource name belongs to instance (a
// name from [InstanceName]); every name does when instance is empty.
func inInstance(name []byte, instance string) bool {
	if instance == "" {
		return true
	}
	return len(name) > len(instance) && name[len(instance)] == '/' && string(name[:len(instance)]) == instance
}
