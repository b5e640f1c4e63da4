module paletted/adapterkit

go 1.22
